// Loads a .pte the way ExecuTorch's LLM runner (llama_main) does: the C++ Module over its MmapDataLoader, with
// MmapUseMlockIgnoreErrors. Runs "forward" once on a float32 input read raw from a file, writes the first output
// raw to another, and prints the process's peak resident memory (VmHWM, kB). Built against the executorch wheel
// by repro/harness/runtime/mmap_module_runner.py; OpenVINO's C API comes from OPENVINO_LIB_PATH.
#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor.h>

#include "process_memory.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using executorch::extension::Module;

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s PTE INPUT_F32 OUTPUT_F32\n", argv[0]);
    return 2;
  }
  std::ifstream input_file(argv[2], std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(input_file)), std::istreambuf_iterator<char>());
  std::vector<float> input(bytes.size() / sizeof(float));
  std::memcpy(input.data(), bytes.data(), input.size() * sizeof(float));

  Module module(argv[1], Module::LoadMode::MmapUseMlockIgnoreErrors);
  if (module.load_method("forward") != executorch::runtime::Error::Ok) {
    std::fprintf(stderr, "load_method failed\n");
    return 1;
  }
  auto tensor = executorch::extension::from_blob(input.data(), {1, static_cast<int>(input.size())});
  auto result = module.forward(tensor);
  if (!result.ok()) {
    std::fprintf(stderr, "forward failed: error 0x%x\n", static_cast<unsigned>(result.error()));
    return 1;
  }
  const auto& output = result.get()[0].toTensor();
  std::ofstream(argv[3], std::ios::binary)
      .write(reinterpret_cast<const char*>(output.const_data_ptr<float>()), output.numel() * sizeof(float));
  std::printf("peak_kb %ld\n", status_kb("VmHWM:"));
  return 0;
}
