// The template chapter: its problem (inputs, output, CPU reference), its options and its table.
#include <cstdint>
#include <limits>
#include <vector>

#include "data.hpp"
#include "device_buffer.hpp"
#include "harness.hpp"
#include "square.hpp"

namespace {

using namespace stepwise;
using namespace stepwise::square;

const ChapterInfo kChapter = {"xx",
                              "template",
                              "a chapter to copy: square every element",
                              std::uint64_t{1} << 26,
                              1,
                              "std::transform on the host"};

/// The data of one run: the input on the host and the device, the output, the reference.
class SquareProblem final : public Problem {
 public:
  SquareProblem(std::size_t n, std::uint64_t seed)
      : input_(
            random_ints(n, seed, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max())),
        in_(input_),
        out_(n) {
    run_cpu_reference();
  }

  std::string element_type() const override { return "int32"; }
  double bytes_moved() const override { return 2.0 * sizeof(std::int32_t) * input_.size(); }  // read n, write n
  void poison_output() override { poison(out_); }
  Check check_output() override { return compare_exact(out_.download(), reference_); }
  void run_cpu_reference() override {
    reference_.resize(input_.size());
    for (std::size_t i = 0; i < input_.size(); ++i) reference_[i] = square_wrapping(input_[i]);
  }

  const std::int32_t* in() const { return in_.data(); }
  std::int32_t* out() { return out_.data(); }
  std::size_t n() const { return input_.size(); }

 private:
  std::vector<std::int32_t> input_;
  std::vector<std::int32_t> reference_;
  DeviceBuffer<std::int32_t> in_;
  DeviceBuffer<std::int32_t> out_;
};

}  // namespace

int main(int argc, char** argv) {
  return run_main(argv[0], [&] {
    ChapterCli cli(kChapter, describe(square_stages()));
    if (auto exit_code = cli.parse(argc, argv)) return *exit_code;  // --help, --list: 0; bad input: 2
    Session session(cli);                                           // no GPU: 77
    session.require_device_bytes(2.0 * sizeof(std::int32_t) * cli.options().n);
    SquareProblem problem(cli.options().n, cli.options().seed);
    return session.run(square_stages(), problem,
                       [&](SquareLaunch launch, const LaunchShape& shape, cudaStream_t stream) {
                         launch(problem.in(), problem.out(), problem.n(), shape, stream);
                       });
  });
}
