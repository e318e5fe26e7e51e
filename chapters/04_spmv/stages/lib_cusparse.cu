// The library rows: cusparseSpMV on the same CSR arrays, with CUSPARSE_SPMV_CSR_ALG1 and
// CUSPARSE_SPMV_CSR_ALG2 (alpha = 1, beta = 0: y = A x).
//
// The handle, the descriptors, each algorithm's buffer and its cusparseSpMV_preprocess are made
// once per matrix before timing (make_cusparse_state), as an application multiplying the same
// matrix many times makes them once; a timed run is one cusparseSpMV call on the stream. Each
// algorithm has its own matrix descriptor, so that one's preprocessing never serves the other.
// When cuSPARSE refuses to prepare an algorithm for a matrix (a status other than success from
// cusparseCreateCsr, cusparseSpMV_bufferSize or cusparseSpMV_preprocess; cuSPARSE 12.4 was
// reported answering CUSPARSE_STATUS_INTERNAL_ERROR for CSR matrices just below 2^31 nonzeros,
// the chapter's limit), its row is left out of the run with a note saying so (cusparse_refusal),
// instead of ending the run.
#include <cusparse.h>

#include <stdexcept>
#include <string>

#include "host/check.hpp"
#include "host/device_buffer.hpp"
#include "spmv.hpp"

namespace stepwise::spmv {

namespace {

/// Throws CudaError naming the cuSPARSE call, file and line unless @p status is success.
void throw_on_cusparse_error(cusparseStatus_t status, const char* call, const char* file, int line) {
  if (status == CUSPARSE_STATUS_SUCCESS) return;
  throw CudaError(cudaErrorUnknown, std::string(call) + " failed: " + cusparseGetErrorName(status) + " (" +
                                        cusparseGetErrorString(status) + ") at " + file + ":" + std::to_string(line));
}

}  // namespace

}  // namespace stepwise::spmv

/// Checks a cuSPARSE call: `STEPWISE_CUSPARSE_CHECK(cusparseCreate(&handle));`
#define STEPWISE_CUSPARSE_CHECK(call) ::stepwise::spmv::throw_on_cusparse_error((call), #call, __FILE__, __LINE__)

namespace stepwise::spmv {

/// One algorithm's matrix descriptor and buffer, or why cuSPARSE refused to prepare them.
struct CusparsePlan {
  cusparseSpMatDescr_t matrix = nullptr;
  DeviceBuffer<unsigned char> buffer;
  std::string refused;  ///< the call and the status that refused this matrix; empty when prepared
};

struct CusparseState {
  cusparseHandle_t handle = nullptr;
  cusparseDnVecDescr_t x = nullptr;
  cusparseDnVecDescr_t y = nullptr;
  cudaDataType type = CUDA_R_32F;
  CusparsePlan alg1, alg2;

  CusparseState() = default;
  CusparseState(const CusparseState&) = delete;
  CusparseState& operator=(const CusparseState&) = delete;
  ~CusparseState() {  // destroying is not checked: a destructor must not throw
    for (CusparsePlan* plan : {&alg1, &alg2})
      if (plan->matrix) cusparseDestroySpMat(plan->matrix);
    if (x) cusparseDestroyDnVec(x);
    if (y) cusparseDestroyDnVec(y);
    if (handle) cusparseDestroy(handle);
  }
};

namespace {

template <class T>
constexpr cudaDataType kDataType = sizeof(T) == 4 ? CUDA_R_32F : CUDA_R_64F;

/// `CALL returned STATUS` when @p status is not success (the plan is then refused), else "".
std::string refusal(cusparseStatus_t status, const char* call) {
  if (status == CUSPARSE_STATUS_SUCCESS) return "";
  return std::string(call) + " returned " + cusparseGetErrorName(status);
}

/// Prepares @p plan for @p algorithm, or records in plan.refused the call and status with which
/// cuSPARSE refused this matrix. A CUDA error (the GPU's, not cuSPARSE's answer) still throws.
template <class T>
void prepare(CusparseState& state, CusparsePlan& plan, const CsrView<T>& matrix, cusparseSpMVAlg_t algorithm) {
  plan.refused = refusal(
      cusparseCreateCsr(&plan.matrix, matrix.rows, matrix.cols, matrix.nnz, const_cast<std::int32_t*>(matrix.offsets),
                        const_cast<std::int32_t*>(matrix.columns), const_cast<T*>(matrix.values), CUSPARSE_INDEX_32I,
                        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, kDataType<T>),
      "cusparseCreateCsr");
  if (!plan.refused.empty()) return;
  const T one = T(1), zero = T(0);
  std::size_t bytes = 0;
  plan.refused = refusal(cusparseSpMV_bufferSize(state.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, plan.matrix,
                                                 state.x, &zero, state.y, kDataType<T>, algorithm, &bytes),
                         "cusparseSpMV_bufferSize");
  if (!plan.refused.empty()) return;
  plan.buffer = DeviceBuffer<unsigned char>(bytes);
  plan.refused = refusal(cusparseSpMV_preprocess(state.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, plan.matrix,
                                                 state.x, &zero, state.y, kDataType<T>, algorithm, plan.buffer.data()),
                         "cusparseSpMV_preprocess");
  STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
}

template <class T, cusparseSpMVAlg_t kAlgorithm>
void launch(const CsrView<T>& matrix, const T*, T* y, SpmvScratch& workspace, const LaunchShape&, cudaStream_t stream) {
  CusparseState& state = workspace.cusparse();
  if (state.type != kDataType<T>) throw std::invalid_argument("the cuSPARSE state was made for another element type");
  if (matrix.rows == 0) return;
  if (matrix.nnz == 0) {  // no nonzeros: cuSPARSE is not called, y = 0
    STEPWISE_CUDA_CHECK(cudaMemsetAsync(y, 0, sizeof(T) * static_cast<std::size_t>(matrix.rows), stream));
    return;
  }
  CusparsePlan& plan = kAlgorithm == CUSPARSE_SPMV_CSR_ALG1 ? state.alg1 : state.alg2;
  if (!plan.refused.empty()) throw std::invalid_argument("cuSPARSE refused this matrix: " + plan.refused);
  const T one = T(1), zero = T(0);
  STEPWISE_CUSPARSE_CHECK(cusparseSetStream(state.handle, stream));
  STEPWISE_CUSPARSE_CHECK(cusparseSpMV(state.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, plan.matrix, state.x,
                                       &zero, state.y, kDataType<T>, kAlgorithm, plan.buffer.data()));
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

template <class T>
std::shared_ptr<CusparseState> make_cusparse_state(const CsrView<T>& matrix, const T* x, T* y) {
  auto state = std::make_shared<CusparseState>();
  state->type = kDataType<T>;
  if (matrix.rows == 0 || matrix.nnz == 0) return state;  // nothing to multiply: the rows need no cuSPARSE
  STEPWISE_CUSPARSE_CHECK(cusparseCreate(&state->handle));
  STEPWISE_CUSPARSE_CHECK(cusparseCreateDnVec(&state->x, matrix.cols, const_cast<T*>(x), kDataType<T>));
  STEPWISE_CUSPARSE_CHECK(cusparseCreateDnVec(&state->y, matrix.rows, y, kDataType<T>));
  prepare(*state, state->alg1, matrix, CUSPARSE_SPMV_CSR_ALG1);
  prepare(*state, state->alg2, matrix, CUSPARSE_SPMV_CSR_ALG2);
  return state;
}

std::string cusparse_refusal(const CusparseState& state, CusparseAlgorithm algorithm) {
  if (algorithm == CusparseAlgorithm::csr_alg1) return state.alg1.refused;
  if (algorithm == CusparseAlgorithm::csr_alg2) return state.alg2.refused;
  return "";
}

template <class T>
SpmvStage<T> spmv_library_cusparse_alg1() {
  SpmvStage<T> stage;
  stage.name = "cusparseSpMV CSR_ALG1";
  stage.lesson = "cuSPARSE's default CSR algorithm";
  stage.kind = RowKind::library;
  stage.traits.cusparse = CusparseAlgorithm::csr_alg1;
  stage.traits.deterministic = false;  // cuSPARSE's documentation promises no fixed order for CSR_ALG1
  stage.launch = launch<T, CUSPARSE_SPMV_CSR_ALG1>;
  return stage;
}

template <class T>
SpmvStage<T> spmv_library_cusparse_alg2() {
  SpmvStage<T> stage;
  stage.name = "cusparseSpMV CSR_ALG2";
  stage.lesson = "cuSPARSE's load-balanced CSR algorithm (deterministic, with a preprocessing step)";
  stage.kind = RowKind::library;
  stage.traits.cusparse = CusparseAlgorithm::csr_alg2;
  stage.traits.deterministic = true;  // cuSPARSE documents CSR_ALG2's results as bit-wise identical run to run
  stage.launch = launch<T, CUSPARSE_SPMV_CSR_ALG2>;
  return stage;
}

// make_cusparse_state's signature names the value type: an X of its own.
#define MAKE_CUSPARSE_STATE(T, ...) \
  template std::shared_ptr<CusparseState> make_cusparse_state<T>(const CsrView<T>&, const T*, T*)
SPMV_FOR_EACH_VALUE(MAKE_CUSPARSE_STATE);
#undef MAKE_CUSPARSE_STATE
SPMV_STAGE_ROWS(spmv_library_cusparse_alg1);
SPMV_STAGE_ROWS(spmv_library_cusparse_alg2);

}  // namespace stepwise::spmv
