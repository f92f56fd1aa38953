# Unity builds (-DCMAKE_UNITY_BUILD=ON; scripts/sanitize.sh builds its tree so, since one
# compiler run per batch of sources parses the shared headers once instead of once per file).
# A unity batch is one translation unit, so two sources of a target that define the same
# file-local name (an anonymous-namespace helper, a `using json = ...` alias) cannot share one.
# These sources are compiled on their own instead; a new clash shows up as a "redefinition" or
# "ambiguous" error in the unity build only, and its source joins this list.
set(pm_unity_alone
    src/io/calibration_yaml.cpp       # check_keys (yaml_util.hpp's has another signature)
    src/calibrate/fit_solve.cpp       # num (also in bounds.cpp)
    src/report/measure_view.cpp       # json (ordered_json elsewhere), Row
    src/report/parallel_view.cpp      # Row
    src/report/prediction_view.cpp    # json, Row
    src/report/plan_infer_view.cpp    # header, title, cells (as plan_view.cpp, prediction_view.cpp)
    src/cli/measure_cuda.cpp          # device_str, to_view (as cmd_measure.cpp)
    test/calibrate/fit_test.cpp       # frame, gemm_samples, check_close
    test/calibrate/gpu_fit_test.cpp   # gemm_samples, check_close
    test/calibrate/gpu_streaming_fit_test.cpp # frame, check_close
    test/calibrate/gpu_nhwc_norm_test.cpp # frame, check_close
    test/core/predict_test.cpp        # gpu
    test/core/rollup_test.cpp         # gpu, net
    test/io/host_hw_test.cpp          # error_of (in each of these test/io files)
    test/io/hw_yaml_test.cpp
    test/io/interconnect_yaml_test.cpp
    test/io/measurements_csv_test.cpp
    test/io/model_yaml_test.cpp       # and kGood
    test/io/nccl_tests_test.cpp
    test/io/shipped_resources_test.cpp # kSource
    test/llm/graph_test.cpp           # tiny, cost_of
    test/llm/parallel_test.cpp        # error_of
    test/llm/quant_test.cpp           # tiny, cost_of
    test/policy/quiet_passes_test.cpp # idx
    test/report/columns_test.cpp      # Layer (a struct of its own)
    test/report/measure_view_test.cpp # Fixture
    test/report/plot_roofline_test.cpp # count, data
    test/trace/cross_device_test.cpp) # rel (test_approx.hpp's)
if(CMAKE_UNITY_BUILD)
  foreach(f ${pm_unity_alone})
    if(f MATCHES "^test/")
      set(scope DIRECTORY ${CMAKE_SOURCE_DIR}/test)
    else()
      set(scope DIRECTORY ${CMAKE_SOURCE_DIR})
    endif()
    set_source_files_properties(${CMAKE_SOURCE_DIR}/${f} ${scope}
                                PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  endforeach()
endif()
