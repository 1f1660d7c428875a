// OpenVINO C API: ov_core_import_model keeps reading the caller's content after it returns. y = x + c is
// compiled, exported, imported from memory we own, and c's bytes there overwritten: exit 1 if y == x - 7.
#define _GNU_SOURCE
#include <openvino/c/openvino.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CHECK(call) if ((call) != OK) return printf("COULD NOT TEST: %s failed\n", #call), 125
#define PORT "<port id='%d' precision='FP32'><dim>2</dim><dim>3</dim></port>"
#define LAYER(id, type) "<layer id='" #id "' name='n" #id "' type='" #type "' version='opset1'>"
static const char* IR = "<net name='m' version='11'><layers>" LAYER(0, Parameter) "<data shape='2,3' "
    "element_type='f32'/><output>" PORT "</output></layer>" LAYER(1, Const) "<data element_type='f32' shape='2,3' "
    "offset='0' size='24'/><output>" PORT "</output></layer>" LAYER(2, Add) "<input>" PORT PORT "</input><output>"
    PORT "</output></layer>" LAYER(3, Result) "<input>" PORT "</input></layer></layers><edges><edge from-layer='0' "
    "from-port='0' to-layer='2' to-port='0'/><edge from-layer='1' from-port='0' to-layer='2' to-port='1'/><edge "
    "from-layer='2' from-port='2' to-layer='3' to-port='0'/></edges></net>";
int main(void) {
    float c[6] = {1, 2, 3, 4, 5, 6}, x[6] = {10, 20, 30, 40, 50, 60}, minus7[6] = {-7, -7, -7, -7, -7, -7};
    ov_core_t* core; ov_model_t* model; ov_compiled_model_t *compiled, *imported; ov_infer_request_t* request;
    ov_tensor_t *weights, *input, *output; ov_shape_t bytes, shape; int64_t dims[2] = {2, 3}, n = 24;
    char ir[4096], *blob; void* data; snprintf(ir, sizeof ir, IR, 0, 0, 0, 1, 2, 0);
    CHECK(ov_core_create(&core)); CHECK(ov_shape_create(1, &n, &bytes)); CHECK(ov_shape_create(2, dims, &shape));
    CHECK(ov_tensor_create_from_host_ptr(U8, bytes, c, &weights));
    CHECK(ov_core_read_model_from_memory_buffer(core, ir, strlen(ir), weights, &model));
    CHECK(ov_core_compile_model(core, model, "CPU", 0, &compiled));
    CHECK(ov_compiled_model_export_model(compiled, "import_lifetime.blob"));
    FILE* file = fopen("import_lifetime.blob", "rb"); fseek(file, 0, SEEK_END); long size = ftell(file); rewind(file);
    if (fread(blob = malloc(size), 1, size, file) != (size_t)size) return puts("COULD NOT TEST: read"), 125;
    CHECK(ov_core_import_model(core, blob, size, "CPU", &imported));  // from memory the caller owns
    char* where = memmem(blob, size, c, sizeof c);  // the constant's bytes inside the caller's content
    if (!where) return puts("COULD NOT TEST: the constant is not in the exported blob"), 125;
    memcpy(where, minus7, sizeof minus7);  // the import has returned: the caller reuses (or frees) its memory
    CHECK(ov_compiled_model_create_infer_request(imported, &request));
    CHECK(ov_tensor_create_from_host_ptr(F32, shape, x, &input));
    CHECK(ov_infer_request_set_input_tensor_by_index(request, 0, input)); CHECK(ov_infer_request_infer(request));
    CHECK(ov_infer_request_get_output_tensor_by_index(request, 0, &output)); CHECK(ov_tensor_data(output, &data));
    ov_version_t version; ov_get_openvino_version(&version); const float* y = data;
    printf("OpenVINO %s: y[0] = %g %g %g (x + c: 11 22 33; x - 7: 3 13 23)\n", version.buildNumber, *y, y[1], y[2]);
    return *y == x[0] - 7 ? puts("BUG REPRODUCED"), 1 : (puts("OK: the import copied its content"), 0);
}
