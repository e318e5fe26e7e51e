# Chooses CMAKE_CUDA_ARCHITECTURES when the user gave none.
#
# 1. The GPUs present, as nvidia-smi reports their compute capability.
# 2. Without a GPU (a CI machine, a laptop): STEPWISE_FALLBACK_CUDA_ARCHITECTURES,
#    "90-real;75-virtual": native Hopper code, plus compute_75 PTX that the driver
#    compiles at load time for any other GPU of compute capability 7.5 or newer.
set(STEPWISE_FALLBACK_CUDA_ARCHITECTURES "90-real;75-virtual"
    CACHE STRING "CUDA architectures used when no GPU is found at configure time")

function(stepwise_choose_cuda_architectures)
  if(DEFINED CMAKE_CUDA_ARCHITECTURES OR DEFINED ENV{CUDAARCHS})
    return()
  endif()
  set(detected "")
  find_program(STEPWISE_NVIDIA_SMI nvidia-smi)
  if(STEPWISE_NVIDIA_SMI)
    execute_process(
      COMMAND ${STEPWISE_NVIDIA_SMI} --query-gpu=compute_cap --format=csv,noheader
      OUTPUT_VARIABLE smi_out RESULT_VARIABLE smi_rc ERROR_QUIET TIMEOUT 20)
    if(smi_rc EQUAL 0)
      string(REPLACE "\n" ";" lines "${smi_out}")
      foreach(line IN LISTS lines)
        string(STRIP "${line}" line)
        if(line MATCHES "^([0-9]+)\\.([0-9]+)$")
          list(APPEND detected "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
        endif()
      endforeach()
      list(REMOVE_DUPLICATES detected)
    endif()
  endif()
  if(detected)
    message(STATUS "stepwise: building for the GPU(s) present: ${detected}")
    set(CMAKE_CUDA_ARCHITECTURES "${detected}" CACHE STRING "CUDA architectures")
  else()
    message(STATUS "stepwise: no GPU found, building for ${STEPWISE_FALLBACK_CUDA_ARCHITECTURES}")
    set(CMAKE_CUDA_ARCHITECTURES "${STEPWISE_FALLBACK_CUDA_ARCHITECTURES}" CACHE STRING "CUDA architectures")
  endif()
endfunction()
