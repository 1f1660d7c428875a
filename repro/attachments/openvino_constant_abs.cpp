// OpenVINO CPU plugin: a rank-1 Abs whose input is computed from constants is dropped at compile time.
// Abs(Range(-2, 2)) + p with p = 0 should be [2 1 0 1]. One line per element type; exit 1 if any is wrong.
#include <cstdio>
#include <openvino/openvino.hpp>
#include <openvino/opsets/opset8.hpp>
template <typename T>
bool dropped(ov::element::Type type, const char* name) {
    using namespace ov::opset8;
    auto p = std::make_shared<Parameter>(type, ov::Shape{4});
    auto scalar = [&](int value) { return Constant::create(type, ov::Shape{}, {value}); };
    auto steps = std::make_shared<Range>(scalar(-2), scalar(2), scalar(1), type);  // [-2 -1 0 1]
    auto sum = std::make_shared<Add>(std::make_shared<Abs>(steps), p);
    auto model = std::make_shared<ov::Model>(ov::OutputVector{sum}, ov::ParameterVector{p});
    auto request = ov::Core().compile_model(model, "CPU").create_infer_request();
    T zeros[4] = {0, 0, 0, 0};
    request.set_input_tensor(ov::Tensor(type, {4}, zeros));
    request.infer();
    const T* got = request.get_output_tensor().data<T>();
    const T expected[4] = {2, 1, 0, 1};
    bool wrong = false;
    for (int i = 0; i < 4; ++i) wrong |= got[i] != expected[i];
    std::printf("%s: Abs(Range(-2, 2)) + 0 = [%g %g %g %g] (expected [2 1 0 1])\n", name, double(got[0]),
                double(got[1]), double(got[2]), double(got[3]));
    return wrong;
}

int main() {
    std::printf("OpenVINO %s\n", ov::get_openvino_version().buildNumber);
    bool bug = dropped<float>(ov::element::f32, "f32") | dropped<int32_t>(ov::element::i32, "i32") |
               dropped<int64_t>(ov::element::i64, "i64") | dropped<int8_t>(ov::element::i8, "i8");
    std::puts(bug ? "BUG REPRODUCED: the Abs was dropped" : "OK: the Abs was applied");
    return bug;
}
