// Chapter 09's --analyze: the model of each stage, the digit histogram of the input, and a small
// example replayed with the kernels' own index math, as text or JSON.
#include "analysis.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "algorithm/merge_sort.hpp"
#include "host/sizes.hpp"
#include "inputs.hpp"
#include "keys.hpp"
#include "sort.hpp"
#include "tile_places.hpp"

namespace stepwise::sort {
namespace {

/// The example: 24 keys of 6 bits (three 2-bit digit passes), equal keys among them so that
/// stability shows; radix tiles of 6 keys, merge tiles of 4.
constexpr int kExampleKeyBits = 6;
constexpr int kExampleDigitBits = 2;
constexpr int kExampleRadixTile = 6;
constexpr int kExampleMergeTile = 4;

/// The rows of @p plan's table as the host-only code reads them: a row's shape and traits depend
/// on the key's size only (merge stage 3's tile), so the 4- or 8-byte unsigned key stands for it.
std::vector<SortRow> rows_of(const Plan& plan) {
  if (key_bytes(plan.key) == 8) return facts_of(sort_stages<std::uint64_t>(plan.problem));
  return facts_of(sort_stages<std::uint32_t>(plan.problem));
}

template <class K>
InputSkew skew_of(const Plan& plan, std::uint64_t n, std::uint64_t seed) {
  InputSkew skew;
  skew.n = n;
  skew.sampled = n > kSkewKeys;
  skew.counted = skew.sampled ? kSkewKeys : n;
  InputClass input = plan.input;
  // The histogram does not depend on the keys' order: sorted and reversed count the keys they sort.
  if (input.kind == InputClass::Kind::sorted || input.kind == InputClass::Kind::reversed)
    input = {InputClass::Kind::uniform, 0};
  skew.passes = digit_skew(make_keys<K>(static_cast<std::size_t>(skew.counted), input, seed), skew.digit_bits);
  return skew;
}

std::string percent(double share) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(share < 0.1 ? 2 : 1) << 100.0 * share << " %";
  return text.str();
}

std::string list(const std::vector<int>& values) {
  std::ostringstream text;
  for (std::size_t i = 0; i < values.size(); ++i) text << (i ? " " : "") << values[i];
  return text.str();
}

std::string keys_text(const std::vector<std::uint32_t>& keys) {
  std::ostringstream text;
  for (std::size_t i = 0; i < keys.size(); ++i) text << (i ? " " : "") << std::setw(2) << keys[i];
  return text.str();
}

std::string rows_text(const Plan& plan, std::uint64_t n) {
  const double element = static_cast<double>(key_bytes(plan.key));  // --analyze counts keys only
  std::ostringstream out;
  out << "n = " << format_grouped(static_cast<std::int64_t>(n)) << " " << to_string(plan.key) << " keys ("
      << to_string(plan.problem) << " table): reading and writing them once moves "
      << format_bytes(2.0 * element * static_cast<double>(n)) << "\n";
  out << "  #  stage              passes  launches  key bytes moved\n";
  for (const SortRow& row : rows_of(plan)) {
    if (row.kind != RowKind::kernel) continue;  // the library chooses its own passes
    const RowModel model = row_model(row, plan, n);
    out << std::setw(3) << row.number << "  " << std::left << std::setw(17) << row.name << std::right << std::setw(8)
        << model.passes << std::setw(10) << model.launches << "  " << format_bytes(model.key_bytes) << "\n";
  }
  return out.str();
}

std::string skew_text(const Plan& plan, const InputSkew& skew, std::uint64_t seed) {
  std::ostringstream out;
  out << "\nThe digit histogram of this input (--input " << to_string(plan.input) << ", --seed " << seed << "): ";
  if (skew.sampled)
    out << "sampled, the first " << format_grouped(static_cast<std::int64_t>(skew.counted)) << " of "
        << format_grouped(static_cast<std::int64_t>(skew.n)) << " keys (--analyze counts at most 2^24)";
  else
    out << "all " << format_grouped(static_cast<std::int64_t>(skew.n)) << " keys";
  out << ", " << skew.digit_bits << "-bit digits as stages 4 and 5 read them\n"
      << "  pass  bits     largest digit  its share  non-empty digits  entropy\n";
  for (std::size_t p = 0; p < skew.passes.size(); ++p) {
    const DigitSkew& pass = skew.passes[p];
    std::ostringstream bits;
    bits << pass.shift << ".." << pass.shift + skew.digit_bits - 1;
    out << std::setw(6) << p + 1 << "  " << std::left << std::setw(9) << bits.str() << std::right << std::setw(13)
        << pass.largest << std::setw(11) << percent(pass.largest_share) << std::setw(18) << pass.non_empty
        << std::setw(9) << std::fixed << std::setprecision(2) << pass.entropy_bits << " bits\n";
  }
  out << "  (a pass whose keys all share one digit moves every key to the same run of the output; 8 bits of\n"
         "   entropy: the 256 digits equally likely)\n";
  return out.str();
}

std::string radix_text(const std::vector<DigitPass>& passes, const LookbackChain& chain) {
  std::ostringstream out;
  out << "\nA small example: " << example_keys().size() << " keys of " << kExampleKeyBits << " bits, "
      << kExampleDigitBits << "-bit digits, tiles of " << kExampleRadixTile
      << " keys; place = digit start + the digit's keys in earlier tiles + rank in the tile\n";
  for (std::size_t p = 0; p < passes.size(); ++p) {
    const DigitPass& pass = passes[p];
    out << "  pass " << p + 1 << " (bits " << pass.shift << ".." << pass.shift + kExampleDigitBits - 1 << "): counts "
        << list(pass.counts) << ", digit starts " << list(pass.starts) << "\n"
        << "    input:  " << keys_text(pass.input) << "\n";
    for (std::size_t t = 0; t < pass.tiles.size(); ++t) {
      std::vector<int> digits(pass.tiles[t].digits.begin(), pass.tiles[t].digits.end());
      out << "    tile " << t << ": digits " << list(digits) << ", ranks " << list(pass.tiles[t].ranks) << ", earlier "
          << list(pass.tiles[t].earlier) << " -> places " << list(pass.tiles[t].places) << "\n";
    }
    out << "    output: " << keys_text(pass.output) << "\n";
  }
  out << "  the look-back of pass 1 at one moment: tile " << chain.tile
      << " walks back along each digit, adding aggregates (A) until an inclusive count (P)\n";
  for (std::size_t d = 0; d < chain.walks.size(); ++d) {
    out << "    digit " << d << ":";
    for (const LookbackStep& step : chain.walks[d])
      out << " tile " << step.tile << " " << step.flag << " " << step.value << ";";
    out << " sum " << chain.prefix[d] << " = its keys of digit " << d << " in earlier tiles\n";
  }
  return out.str();
}

std::string merge_text(const MergeExample& example) {
  std::ostringstream out;
  out << "\nThe merge sort of the same keys, tiles of " << example.tile << ": the block sort, then "
      << example.passes.size() << " passes; each tile's split is a Merge Path search in its pair of runs\n"
      << "  block sorted: " << keys_text(example.block_sorted) << "\n";
  for (std::size_t p = 0; p < example.passes.size(); ++p) {
    const MergePass& pass = example.passes[p];
    out << "  pass " << p + 1 << " (runs of " << pass.width << " -> " << 2 * pass.width << "), splits "
        << list(pass.partitions) << "\n";
    for (std::size_t t = 0; t < pass.tiles.size(); ++t) {
      const MergeTile& tile = pass.tiles[t];
      out << "    tile " << t << ": outputs [" << tile.first << ", " << tile.last << ") from A[" << tile.a_begin << ", "
          << tile.a_end << ") and B[" << tile.b_begin << ", " << tile.b_end << ")\n";
    }
    out << "    output: " << keys_text(pass.output) << "\n";
  }
  return out.str();
}

using json = nlohmann::ordered_json;  // keys in the order written: the schema reads top-down

json rows_json(const Plan& plan, std::uint64_t n) {
  json rows = json::array();
  for (const SortRow& row : rows_of(plan)) {
    if (row.kind != RowKind::kernel) continue;
    const RowModel model = row_model(row, plan, n);
    rows.push_back({{"stage", row.number},
                    {"name", row.name},
                    {"passes", model.passes},
                    {"launches", model.launches},
                    {"key_bytes", model.key_bytes}});
  }
  return rows;
}

json skew_json(const Plan& plan, const InputSkew& skew, std::uint64_t seed) {
  json passes = json::array();
  for (const DigitSkew& pass : skew.passes)
    passes.push_back({{"shift", pass.shift},
                      {"largest_digit", pass.largest},
                      {"largest_share", pass.largest_share},
                      {"non_empty", pass.non_empty},
                      {"entropy_bits", pass.entropy_bits}});
  return {{"input", to_string(plan.input)},
          {"seed", seed},
          {"n", skew.n},
          {"counted", skew.counted},
          {"sampled", skew.sampled},
          {"digit_bits", skew.digit_bits},
          {"passes", passes}};
}

json radix_json(const std::vector<DigitPass>& passes) {
  json out = json::array();
  for (const DigitPass& pass : passes) {
    json tiles = json::array();
    for (const TilePlaces& tile : pass.tiles)
      tiles.push_back({{"first", tile.first},
                       {"digits", tile.digits},
                       {"ranks", tile.ranks},
                       {"earlier", tile.earlier},
                       {"places", tile.places}});
    out.push_back({{"shift", pass.shift},
                   {"input", pass.input},
                   {"counts", pass.counts},
                   {"starts", pass.starts},
                   {"tiles", tiles},
                   {"output", pass.output}});
  }
  return out;
}

json lookback_json(const LookbackChain& chain) {
  json flags = json::array(), walks = json::array();
  for (const std::vector<char>& row : chain.flags) {
    json letters = json::array();
    for (char flag : row) letters.push_back(std::string(1, flag));
    flags.push_back(letters);
  }
  for (const std::vector<LookbackStep>& walk : chain.walks) {
    json steps = json::array();
    for (const LookbackStep& step : walk)
      steps.push_back({{"tile", step.tile}, {"flag", std::string(1, step.flag)}, {"value", step.value}});
    walks.push_back(steps);
  }
  return {{"pass", 0},
          {"tile", chain.tile},
          {"counts", chain.counts},
          {"exclusive", chain.exclusive},
          {"inclusive", chain.inclusive},
          {"flags", flags},
          {"walks", walks},
          {"prefix", chain.prefix}};
}

json merge_json(const MergeExample& example) {
  json passes = json::array();
  for (const MergePass& pass : example.passes) {
    json tiles = json::array();
    for (const MergeTile& tile : pass.tiles)
      tiles.push_back({{"first", tile.first},
                       {"last", tile.last},
                       {"a_begin", tile.a_begin},
                       {"a_end", tile.a_end},
                       {"b_begin", tile.b_begin},
                       {"b_end", tile.b_end}});
    passes.push_back({{"width", pass.width},
                      {"input", pass.input},
                      {"partitions", pass.partitions},
                      {"tiles", tiles},
                      {"output", pass.output}});
  }
  return {{"tile", example.tile}, {"keys", example.keys}, {"block_sorted", example.block_sorted}, {"passes", passes}};
}

}  // namespace

template <class K>
std::vector<DigitSkew> digit_skew(const std::vector<K>& keys, int digit_bits) {
  const int passes = (kKeyBits<K> + digit_bits - 1) / digit_bits;
  std::vector<DigitSkew> skew(static_cast<std::size_t>(passes));
  const std::size_t digits = std::size_t{1} << digit_bits;
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(passes) * digits, 0);
  for (const K& key : keys)
    for (int p = 0; p < passes; ++p) {
      const int shift = p * digit_bits;
      const int width = std::min(digit_bits, kKeyBits<K> - shift);
      ++counts[static_cast<std::size_t>(p) * digits + digit(ordered_bits(key), shift, width)];
    }
  const double total = static_cast<double>(keys.size());
  for (int p = 0; p < passes; ++p) {
    DigitSkew& pass = skew[static_cast<std::size_t>(p)];
    pass.shift = p * digit_bits;
    std::uint64_t largest = 0;
    for (std::size_t d = 0; d < digits; ++d) {
      const std::uint64_t count = counts[static_cast<std::size_t>(p) * digits + d];
      if (count > largest) {
        largest = count;
        pass.largest = static_cast<unsigned>(d);
      }
      if (count == 0) continue;
      ++pass.non_empty;
      const double share = static_cast<double>(count) / total;
      pass.entropy_bits -= share * std::log2(share);
    }
    pass.largest_share = keys.empty() ? 0.0 : static_cast<double>(largest) / total;
    pass.entropy_bits = std::max(0.0, pass.entropy_bits);  // -0.0 for one digit
  }
  return skew;
}

template std::vector<DigitSkew> digit_skew(const std::vector<std::uint32_t>&, int);
template std::vector<DigitSkew> digit_skew(const std::vector<std::int32_t>&, int);
template std::vector<DigitSkew> digit_skew(const std::vector<float>&, int);
template std::vector<DigitSkew> digit_skew(const std::vector<std::uint64_t>&, int);

InputSkew input_skew(const Plan& plan, std::uint64_t n, std::uint64_t seed) {
  switch (plan.key) {
    case KeyType::int32:
      return skew_of<std::int32_t>(plan, n, seed);
    case KeyType::float32:
      return skew_of<float>(plan, n, seed);
    case KeyType::uint64:
      return skew_of<std::uint64_t>(plan, n, seed);
    case KeyType::uint32:
      break;
  }
  return skew_of<std::uint32_t>(plan, n, seed);
}

std::vector<DigitPass> radix_example(const std::vector<std::uint32_t>& keys, int tile, int digit_bits, int key_bits) {
  const int n = static_cast<int>(keys.size());
  const int digits = 1 << digit_bits;
  std::vector<DigitPass> passes;
  std::vector<std::uint32_t> current = keys;
  for (int shift = 0; shift < key_bits; shift += digit_bits) {
    const int width = std::min(digit_bits, key_bits - shift);
    DigitPass pass;
    pass.shift = shift;
    pass.input = current;
    pass.counts.assign(static_cast<std::size_t>(digits), 0);
    for (std::uint32_t key : current) ++pass.counts[digit(ordered_bits(key), shift, width)];
    pass.starts.assign(static_cast<std::size_t>(digits), 0);
    for (int d = 1; d < digits; ++d) pass.starts[d] = pass.starts[d - 1] + pass.counts[d - 1];
    std::vector<int> earlier(static_cast<std::size_t>(digits), 0);
    pass.output.assign(current.size(), 0);
    for (int first = 0; first < n; first += tile) {
      const int count = std::min(tile, n - first);
      TilePlaces places{first, {}, {}, earlier, std::vector<int>(static_cast<std::size_t>(count))};
      tile_digit_places(current.data() + first, count, shift, width, pass.starts.data(), earlier.data(),
                        places.places.data());
      for (int i = 0; i < count; ++i) {
        const unsigned d = digit(ordered_bits(current[first + i]), shift, width);
        places.digits.push_back(d);
        places.ranks.push_back(places.places[i] - pass.starts[d] - earlier[d]);
        pass.output[static_cast<std::size_t>(places.places[i])] = current[first + i];
      }
      for (unsigned d : places.digits) ++earlier[d];
      pass.tiles.push_back(std::move(places));
    }
    current = pass.output;
    passes.push_back(std::move(pass));
  }
  return passes;
}

LookbackChain lookback_chain(const DigitPass& pass) {
  const int tiles = static_cast<int>(pass.tiles.size());
  const int digits = static_cast<int>(pass.counts.size());
  LookbackChain chain;
  chain.tile = tiles - 1;
  for (int t = 0; t < tiles; ++t) {
    std::vector<int> counts(static_cast<std::size_t>(digits), 0);
    for (unsigned d : pass.tiles[t].digits) ++counts[d];
    std::vector<int> inclusive(static_cast<std::size_t>(digits));
    std::vector<char> flags(static_cast<std::size_t>(digits));
    for (int d = 0; d < digits; ++d) {
      inclusive[d] = pass.tiles[t].earlier[d] + counts[d];
      const bool finished = t == 0 || (t < tiles - 2 && d % 2 == 0);
      flags[d] = finished ? 'P' : 'A';
    }
    chain.counts.push_back(std::move(counts));
    chain.exclusive.push_back(pass.tiles[t].earlier);
    chain.inclusive.push_back(std::move(inclusive));
    chain.flags.push_back(std::move(flags));
  }
  // look_back_column, one predecessor at a time: add what it published, stop at an inclusive count.
  for (int d = 0; d < digits; ++d) {
    std::vector<LookbackStep> walk;
    int prefix = 0;
    for (int t = chain.tile - 1; t >= 0; --t) {
      const char flag = chain.flags[t][d];
      const int value = flag == 'P' ? chain.inclusive[t][d] : chain.counts[t][d];
      walk.push_back({t, flag, value});
      prefix += value;
      if (flag == 'P') break;
    }
    chain.walks.push_back(std::move(walk));
    chain.prefix.push_back(prefix);
  }
  return chain;
}

MergeExample merge_example(const std::vector<std::uint32_t>& keys, int tile) {
  const int n = static_cast<int>(keys.size());
  const OrderedLess<std::uint32_t> less;
  MergeExample example;
  example.tile = tile;
  example.keys = keys;
  example.block_sorted = keys;
  for (int first = 0; first < n; first += tile)
    std::stable_sort(example.block_sorted.begin() + first, example.block_sorted.begin() + std::min(n, first + tile),
                     less);
  std::vector<std::uint32_t> current = example.block_sorted;
  const int tiles = (n + tile - 1) / tile;
  for (int width = tile, pass_number = 0; pass_number < merge_sort_passes(n, tile); width *= 2, ++pass_number) {
    MergePass pass;
    pass.width = width;
    pass.input = current;
    for (int boundary = 0; boundary <= tiles; ++boundary)
      pass.partitions.push_back(merge_sort_partition(current.data(), n, width, tile, boundary, less));
    pass.output.assign(current.size(), 0);
    for (int t = 0; t < tiles; ++t) {
      const MergeRange<int> range =
          merge_sort_tile_range(n, width, tile, t, pass.partitions[t], pass.partitions[t + 1]);
      MergeTile merged{t * tile, std::min(n, (t + 1) * tile), range.a_begin, range.a_end, range.b_begin, range.b_end};
      int a = merged.a_begin, b = merged.b_begin;
      for (int out = merged.first; out < merged.last; ++out) {  // ties take A
        const bool take_a = b == merged.b_end || (a < merged.a_end && !less(current[b], current[a]));
        pass.output[static_cast<std::size_t>(out)] = current[take_a ? a++ : b++];
      }
      pass.tiles.push_back(merged);
    }
    current = pass.output;
    example.passes.push_back(std::move(pass));
  }
  return example;
}

const std::vector<std::uint32_t>& example_keys() {
  static const std::vector<std::uint32_t> keys = {45, 7,  22, 13, 60, 2,  38, 29, 11, 54, 7,  33,
                                                  19, 48, 26, 1,  63, 14, 40, 31, 9,  22, 57, 35};
  return keys;
}

std::string analysis(const Plan& plan, const CommonOptions& options) {
  if (options.format != Format::json && options.format != Format::table)
    throw UsageError(std::string("--format ") + to_string(options.format) + ": --analyze prints table or json");
  const std::uint64_t n = options.n;
  const InputSkew skew = input_skew(plan, n, options.seed);
  const std::vector<DigitPass> radix =
      radix_example(example_keys(), kExampleRadixTile, kExampleDigitBits, kExampleKeyBits);
  const LookbackChain chain = lookback_chain(radix.front());
  const MergeExample merge = merge_example(example_keys(), kExampleMergeTile);
  if (options.format == Format::json) {
    const json document = {{"analysis", "sort"},
                           {"chapter", "09"},
                           {"problem", to_string(plan.problem)},
                           {"key", to_string(plan.key)},
                           {"n", n},
                           {"rows", rows_json(plan, n)},
                           {"skew", skew_json(plan, skew, options.seed)},
                           {"example",
                            {{"keys", example_keys()},
                             {"key_bits", kExampleKeyBits},
                             {"digit_bits", kExampleDigitBits},
                             {"tile", kExampleRadixTile}}},
                           {"radix", radix_json(radix)},
                           {"lookback", lookback_json(chain)},
                           {"merge", merge_json(merge)}};
    return document.dump(1) + "\n";
  }
  return rows_text(plan, n) + skew_text(plan, skew, options.seed) +
         (plan.problem == Algorithm::merge ? merge_text(merge) : radix_text(radix, chain));
}

}  // namespace stepwise::sort
