// OpenVINO C API, as ExecuTorch's OpenVINO backend calls it: ov_core_import_model refuses a blob whose header names
// another CPU's ISA, though only the header differs. y = x + c is compiled, exported, and imported three times from
// memory: as exported, with the header's ISA changed to another class's, and with this host's header put back.
// Exit 1 if the second import is refused, 0 if it is not (or the blob has no header), 125 could not test.
#include <openvino/c/openvino.h>
#include <stdint.h>
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
static const char* OTHER[2] = {"Intel AVX2", "Intel AVX-512 with Intel DL Boost and bfloat16 support"};

// The blob with its header's text replaced (magic, u32 version, u64 length, text, then the model).
static char* with_text(const char* blob, long size, const char* text, long* new_size) {
    uint64_t old_length, length = strlen(text);
    memcpy(&old_length, blob + 12, 8);
    long body = 20 + (long)old_length;
    char* out = malloc(20 + length + size - body);
    memcpy(out, blob, 12); memcpy(out + 12, &length, 8); memcpy(out + 20, text, length);
    memcpy(out + 20 + length, blob + body, size - body);
    *new_size = 20 + (long)length + size - body;
    return out;
}

int main(void) {
    float c[6] = {1, 2, 3, 4, 5, 6}, x[6] = {10, 20, 30, 40, 50, 60};
    ov_core_t* core; ov_model_t* model; ov_compiled_model_t *compiled, *imported; ov_infer_request_t* request;
    ov_tensor_t *weights, *input, *output; ov_shape_t bytes, shape; int64_t dims[2] = {2, 3}, n = 24;
    char ir[4096], *blob, own[512], foreign[512]; void* data; snprintf(ir, sizeof ir, IR, 0, 0, 0, 1, 2, 0);
    ov_version_t version; ov_get_openvino_version(&version); printf("OpenVINO %s\n", version.buildNumber);
    CHECK(ov_core_create(&core)); CHECK(ov_shape_create(1, &n, &bytes)); CHECK(ov_shape_create(2, dims, &shape));
    CHECK(ov_tensor_create_from_host_ptr(U8, bytes, c, &weights));
    CHECK(ov_core_read_model_from_memory_buffer(core, ir, strlen(ir), weights, &model));
    CHECK(ov_core_compile_model(core, model, "CPU", 0, &compiled));
    CHECK(ov_compiled_model_export_model(compiled, "cpu_stamp.blob"));
    FILE* file = fopen("cpu_stamp.blob", "rb"); fseek(file, 0, SEEK_END); long size = ftell(file); rewind(file);
    if (fread(blob = malloc(size), 1, size, file) != (size_t)size) return puts("COULD NOT TEST: read"), 125;
    if (size < 20 || memcmp(blob, "RR_UPCVO", 8)) return puts("the blob has no header: it imports everywhere"), 0;
    uint64_t length; memcpy(&length, blob + 12, 8);
    if (length >= sizeof own) return puts("COULD NOT TEST: an unexpected header"), 125;
    memcpy(own, blob + 20, length); own[length] = 0;
    const char* isa = strstr(own, "isa="); if (!isa) return puts("COULD NOT TEST: no isa= in the header"), 125;
    snprintf(foreign, sizeof foreign, "%.*s%s", (int)(isa + 4 - own), own, strcmp(isa + 4, OTHER[0]) ? OTHER[0]
             : OTHER[1]);
    printf("1. exported here: %s\n", own);
    long foreign_size, back_size;
    char* foreign_blob = with_text(blob, size, foreign, &foreign_size);
    ov_status_e refused = ov_core_import_model(core, foreign_blob, foreign_size, "CPU", &imported);
    printf("2. stamped %s: ov_core_import_model %s\n", foreign, refused == OK ? "imports it" : "refuses it:");
    if (refused != OK) printf("   %s\n", ov_get_last_err_msg());
    char* back = with_text(foreign_blob, foreign_size, own, &back_size);
    CHECK(ov_core_import_model(core, back, back_size, "CPU", &imported));
    CHECK(ov_compiled_model_create_infer_request(imported, &request));
    CHECK(ov_tensor_create_from_host_ptr(F32, shape, x, &input));
    CHECK(ov_infer_request_set_input_tensor_by_index(request, 0, input)); CHECK(ov_infer_request_infer(request));
    CHECK(ov_infer_request_get_output_tensor_by_index(request, 0, &output)); CHECK(ov_tensor_data(output, &data));
    const float* y = data;
    printf("3. this host's header put back: imports, y[0] = %g %g %g (x + c: 11 22 33)\n", *y, y[1], y[2]);
    if (refused == OK) return puts("OK: a blob stamped for another CPU class imports"), 0;
    return puts("BUG REPRODUCED: a blob stamped for another CPU class is refused, though only its header differs"), 1;
}
