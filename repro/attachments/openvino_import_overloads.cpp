// Which ov::Core::import_model overload keeps reading the caller's memory after it returns: the blob of
// y = x + c is imported from a buffer we own, c's bytes there are overwritten, then y is computed.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <openvino/openvino.hpp>
#include <openvino/opsets/opset8.hpp>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>
struct CallerMemory : std::streambuf {  // an istream over the caller's buffer, as the C API's mem_istream
    CallerMemory(char* data, size_t size) { setg(data, data, data + size); }
    pos_type seekoff(off_type offset, std::ios_base::seekdir from, std::ios_base::openmode) override {
        setg(eback(), (from == std::ios_base::beg ? eback() : from == std::ios_base::cur ? gptr() : egptr()) + offset,
             egptr());
        return gptr() - eback();
    }
    pos_type seekpos(pos_type at, std::ios_base::openmode mode) override { return seekoff(at, std::ios_base::beg, mode); }
};
template <class Core>  // only where the release declares the Tensor overload (openvino PR #31327)
auto from_tensor(Core& core, std::vector<char>& blob, int) -> decltype(core.import_model(ov::Tensor(), "CPU")) {
    return core.import_model(ov::Tensor(ov::element::u8, {blob.size()}, blob.data()), "CPU");
}
template <class Core>
ov::CompiledModel from_tensor(Core&, std::vector<char>&, long) { return {}; }
ov::CompiledModel from_istream(ov::Core& core, std::vector<char>& blob) {
    CallerMemory memory(blob.data(), blob.size());
    std::istream stream(&memory);
    return core.import_model(stream, "CPU");
}
int main() {
    float c[6] = {1, 2, 3, 4, 5, 6}, x[6] = {10, 20, 30, 40, 50, 60}, minus7[6] = {-7, -7, -7, -7, -7, -7};
    auto input = std::make_shared<ov::opset8::Parameter>(ov::element::f32, ov::Shape{2, 3});
    auto constant = ov::opset8::Constant::create(ov::element::f32, {2, 3}, std::vector<float>(c, c + 6));
    auto add = std::make_shared<ov::opset8::Add>(input, constant);
    ov::Core core;
    std::stringstream exported;
    core.compile_model(std::make_shared<ov::Model>(ov::OutputVector{add}, ov::ParameterVector{input}), "CPU")
        .export_model(exported);
    const std::string bytes = exported.str();
    std::printf("OpenVINO %s\n", ov::get_openvino_version().buildNumber);
    for (const char* overload : {"std::istream&", "const ov::Tensor&"}) {
        std::vector<char> blob(bytes.begin(), bytes.end());
        bool tensor = overload[0] == 'c';
        ov::CompiledModel compiled = tensor ? from_tensor(core, blob, 0) : from_istream(core, blob);
        if (!compiled) {
            std::printf("import_model(%s): not declared in this release\n", overload);
            continue;
        }
        auto where = std::search(blob.begin(), blob.end(), reinterpret_cast<char*>(c), reinterpret_cast<char*>(c + 6));
        if (where == blob.end()) return std::printf("COULD NOT TEST: the constant is not in the blob\n"), 125;
        std::memcpy(&*where, minus7, sizeof minus7);  // the import has returned: the caller reuses its memory
        auto request = compiled.create_infer_request();
        request.set_input_tensor(ov::Tensor(ov::element::f32, {2, 3}, x));
        request.infer();
        float y = request.get_output_tensor().data<float>()[0];
        std::printf("import_model(%s): y[0] = %g, %s\n", overload, y,
                    y == x[0] - 7 ? "reads the caller's memory after returning" : "copied the blob");
    }
}
