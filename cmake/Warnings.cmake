# stepwise_target_warnings(target): -Wall -Wextra for host code, also inside .cu
# files (through -Xcompiler), and nvcc's own warnings.
function(stepwise_target_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --Werror=cross-execution-space-call -lineinfo>)
endfunction()
