// Loads a .pte with ExecuTorch's C++ Module (FileDataLoader or MmapDataLoader), runs "forward" once on an
// input of ones, and prints resident memory (kB, from /proc/self/status) after loading the method, after the
// run, and at its peak, then the sum of the first output. Built against the executorch wheel by
// benchmarks/blob_memory.py; the OpenVINO backend comes from the first libexecutorch_backend_openvino.so on
// LD_LIBRARY_PATH, OpenVINO's C API from OPENVINO_LIB_PATH.
#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor.h>

#include "process_memory.h"

#include <cstdio>
#include <string>
#include <vector>

using executorch::extension::Module;

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s PTE file|mmap INPUT_SIZE\n", argv[0]);
    return 2;
  }
  const auto mode = std::string(argv[2]) == "file" ? Module::LoadMode::File : Module::LoadMode::Mmap;
  const int size = std::stoi(argv[3]);
  const long before = status_kb("VmRSS:");
  Module module(argv[1], mode);
  if (module.load_method("forward") != executorch::runtime::Error::Ok) {
    std::fprintf(stderr, "load_method failed\n");
    return 1;
  }
  const long loaded = status_kb("VmRSS:");
  std::vector<float> input(size, 1.0f);
  auto tensor = executorch::extension::from_blob(input.data(), {1, size});
  auto result = module.forward(tensor);
  if (!result.ok()) {
    std::fprintf(stderr, "forward failed\n");
    return 1;
  }
  const auto& output = result.get()[0].toTensor();
  double sum = 0;
  for (ssize_t i = 0; i < output.numel(); i++) {
    sum += output.const_data_ptr<float>()[i];
  }
  std::printf("before_kb %ld loaded_kb %ld run_kb %ld peak_kb %ld sum %.6g\n", before, loaded,
              status_kb("VmRSS:"), status_kb("VmHWM:"), sum);
  return 0;
}
