# The fuzz build (-DCLAIMRAG_FUZZ=ON, scripts/fuzz.sh): clang's libFuzzer with AddressSanitizer and
# UndefinedBehaviorSanitizer, and only the library sources that the readers of outside bytes need,
# so that CI's short run does not wait for the whole library. The readers sit in the lower modules;
# of the upper ones only the files that read a claimrag input format are taken. A reader that comes
# to use another module fails to link here: add the folder or the file below.
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "CLAIMRAG_FUZZ needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++-16")
endif()
set(claimrag_fuzz_folders text io linear nn kernels dataset tokenizer pretrained served run shard)
set(claimrag_fuzz_files
    verification/verification_pairs.cpp verification/verify_inputs.cpp verification/verdict_report.cpp
    verification/label.cpp verification/labelled_pairs.cpp verification/llm_judge_verifier.cpp verification/verdict_failures.cpp
    grounding/answers_file.cpp grounding/claim_segmenter.cpp interrogation/pair.cpp interrogation/recorded_responder.cpp sufficiency/example.cpp
    bm25/collection_statistics.cpp)
# The whole library instead, for the targets that need more of it (claimrag's own --config, whose
# checks reach the verifier backends): the long runs' option, too slow to build for CI's short one.
option(CLAIMRAG_FUZZ_WHOLE_LIBRARY "Fuzz build: the whole library and the targets needing it" OFF)
set(claimrag_fuzz_sources)
foreach(source IN LISTS CLAIMRAG_LIB_SOURCES)
  if(CLAIMRAG_FUZZ_WHOLE_LIBRARY)
    list(APPEND claimrag_fuzz_sources "${source}")
    continue()
  endif()
  file(RELATIVE_PATH relative "${PROJECT_SOURCE_DIR}/src" "${source}")
  string(REGEX REPLACE "/.*" "" folder "${relative}")
  if(folder IN_LIST claimrag_fuzz_folders OR relative IN_LIST claimrag_fuzz_files)
    list(APPEND claimrag_fuzz_sources "${source}")
  endif()
endforeach()
set(CLAIMRAG_LIB_SOURCES ${claimrag_fuzz_sources})

# The library is instrumented for coverage (fuzzer-no-link); only the targets link libFuzzer's main.
add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
add_link_options(-fsanitize=address,undefined)
