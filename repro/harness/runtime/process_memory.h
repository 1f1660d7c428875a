// A field of /proc/self/status in kB (VmRSS:, VmHWM:), or -1: what the C++ runners report of their own memory
// (repro/harness/mmap_module_runner.cpp, benchmarks/blob_memory_runner.cpp; built with this folder on the include
// path by repro/harness/mmap_module_runner.py's build_runner).
#pragma once

#include <cstring>
#include <fstream>
#include <string>

inline long status_kb(const char* field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field, 0) == 0) {
      return std::stol(line.substr(std::strlen(field)));
    }
  }
  return -1;
}
