// SPDX-License-Identifier: MIT
// Logging: the UR_LOG_<NAME> grammar (valid and malformed values) read by common/env/log, the
// message format and sinks, and logging through the real loader and the fake adapters,
// including callbacks set with urAdapterSetLoggerCallback.
#include <stdio.h>
#include <string.h>

#include "env/env.h"
#include "loader_test.h"
#include "env/log.h"

static char dir[512], out_path[700];

// Sends this process's stderr to a file, so the logger's stderr output can be read.
static const char *capture_stderr(void) {
    static char path[700];
    snprintf(path, sizeof path, "%s/stderr.txt", dir);
    ck_assert_ptr_nonnull(freopen(path, "w", stderr));
    return path;
}

static const char *captured(const char *path) {
    fflush(stderr);
    return lt_read_file(path);
}

// Configures the loader's logger (in this process's copy of common/) from `spec`.
static urc_logger_t *configure(const char *spec) {
    lt_setenv("UR_LOG_LOADER", spec);
    urc_env_reload();
    urc_logger_t *lg = urc_logger(URC_ENV_LOG_LOADER);
    urc_log_reconfigure(lg);
    return lg;
}

typedef struct grammar_case_t {
    const char *spec; // "%s" stands for a temporary folder
    bool valid;
    ur_logger_level_t level, flush;
    bool fileline;
    const char *output; // with "%s" as above; for a malformed value: text of the complaint
} grammar_case_t;

#define Q UR_LOGGER_LEVEL_QUIET
#define E UR_LOGGER_LEVEL_ERROR
static const grammar_case_t grammar[] = {
    {"level:debug", true, UR_LOGGER_LEVEL_DEBUG, E, false, "stderr"},
    {"level:info;flush:debug", true, UR_LOGGER_LEVEL_INFO, UR_LOGGER_LEVEL_DEBUG, false, "stderr"},
    {"level:warning;output:stdout", true, UR_LOGGER_LEVEL_WARN, E, false, "stdout"},
    {"output:stderr;level:error", true, E, E, false, "stderr"},
    {"level:quiet", true, Q, E, false, "stderr"},
    {"fileline:1", true, Q, E, true, "stderr"},
    {"fileline:TRUE;level:debug", true, UR_LOGGER_LEVEL_DEBUG, E, true, "stderr"},
    {"fileline:no", true, Q, E, false, "stderr"},
    {"level:debug;", true, UR_LOGGER_LEVEL_DEBUG, E, false, "stderr"},
    {"output:file,%s/a.log", true, Q, E, false, "file,%s/a.log"},
    {"output:file,'%s/a:b.log';level:info", true, UR_LOGGER_LEVEL_INFO, E, false,
     "file,%s/a:b.log"},
    {"level:loud", false, Q, E, false, "'loud' is not a level"},
    {"level:DEBUG", false, Q, E, false, "'DEBUG' is not a level"},
    {"Level:debug", false, Q, E, false, "unknown key 'Level'"},
    {"colour:red", false, Q, E, false, "unknown key 'colour'"},
    {"level", false, Q, E, false, "'level' is not key:value"},
    {"level:", false, Q, E, false, "'level:' has no value"},
    {":debug", false, Q, E, false, "':debug' has no key"},
    {"level:debug;level:info", false, Q, E, false, "key 'level' appears twice"},
    {"level:debug;;flush:info", false, Q, E, false, "is not key:value"},
    {"output:file", false, Q, E, false, "output must be stdout, stderr or file,<path>"},
    {"output:stdout,x", false, Q, E, false, "output must be stdout, stderr or file,<path>"},
    {"output:file,/a:b", false, Q, E, false, "'/a:b' holds ':' and must be quoted"},
    {"output:file,%s/no/such/x.log", false, Q, E, false, "cannot open log file"},
    {"level:debug;output:file,%s/no/x.log", false, Q, E, false, "cannot open log file"},
};

// Copies `pattern` with each "%s" replaced by the temporary folder.
static void with_dir(char *out, size_t size, const char *pattern) {
    size_t n = 0;
    for (const char *p = pattern; *p != '\0' && n + 1 < size; ++p) {
        if (p[0] == '%' && p[1] == 's') {
            n += (size_t)snprintf(out + n, size - n, "%s", dir);
            ++p;
        } else {
            out[n++] = *p;
        }
    }
    out[n < size ? n : size - 1] = '\0';
}

START_TEST(grammar_case) {
    const grammar_case_t *c = &grammar[_i];
    lt_temp_dir(dir, sizeof dir);
    const char *err = capture_stderr();
    char spec[1024], output[1024];
    with_dir(spec, sizeof spec, c->spec);
    with_dir(output, sizeof output, c->output);
    urc_log_settings_t s;
    urc_log_get_settings(configure(spec), &s);
    ck_assert_msg(s.valid == c->valid, "UR_LOG_LOADER=\"%s\" read as %s", spec,
                  s.valid ? "valid" : "malformed");
    ck_assert_int_eq(s.level, c->level);
    ck_assert_int_eq(s.flush_level, c->flush);
    ck_assert_int_eq(s.fileline, c->fileline);
    if (c->valid) {
        ck_assert_str_eq(s.output, output);
        ck_assert_str_eq(captured(err), "");
    } else {
        ck_assert_str_eq(s.output, "stderr"); // the defaults
        const char *complaint = captured(err);
        ck_assert_msg(strstr(complaint, "UR_LOG_LOADER=") != NULL &&
                          strstr(complaint, output) != NULL,
                      "no complaint with \"%s\": %s", output, complaint);
    }
}
END_TEST

START_TEST(message_format_and_level) {
    lt_temp_dir(dir, sizeof dir);
    char spec[800];
    snprintf(out_path, sizeof out_path, "%s/out.log", dir);
    snprintf(spec, sizeof spec, "level:info;flush:info;output:file,%s", out_path);
    urc_logger_t *lg = configure(spec);
    int evaluated = 0;
    URC_LOG(lg, UR_LOGGER_LEVEL_DEBUG, "hidden %d", ++evaluated);
    ck_assert_int_eq(evaluated, 0); // the level is checked before the arguments are formatted
    URC_LOG(lg, UR_LOGGER_LEVEL_INFO, "hello %d", 1);
    URC_LOG(lg, UR_LOGGER_LEVEL_WARN, "careful");
    URC_LOG(lg, UR_LOGGER_LEVEL_ERROR, "broken");
    ck_assert_str_eq(
        lt_read_file(out_path),
        "<LOADER>[INFO]: hello 1\n<LOADER>[WARNING]: careful\n<LOADER>[ERROR]: broken\n");
}
END_TEST

START_TEST(flush_level) {
    lt_temp_dir(dir, sizeof dir);
    char spec[800];
    snprintf(out_path, sizeof out_path, "%s/out.log", dir);
    snprintf(spec, sizeof spec, "level:debug;flush:error;output:file,%s", out_path);
    urc_logger_t *lg = configure(spec);
    URC_LOG(lg, UR_LOGGER_LEVEL_INFO, "buffered");
    ck_assert_str_eq(lt_read_file(out_path), "");
    URC_LOG(lg, UR_LOGGER_LEVEL_ERROR, "flushed");
    ck_assert_str_eq(lt_read_file(out_path),
                     "<LOADER>[INFO]: buffered\n<LOADER>[ERROR]: flushed\n");
}
END_TEST

START_TEST(fileline) {
    lt_temp_dir(dir, sizeof dir);
    char spec[800], expected[64];
    snprintf(out_path, sizeof out_path, "%s/out.log", dir);
    snprintf(spec, sizeof spec, "level:info;flush:info;fileline:yes;output:file,%s", out_path);
    urc_logger_t *lg = configure(spec);
    int line = __LINE__ + 1;
    URC_LOG(lg, UR_LOGGER_LEVEL_INFO, "here");
    snprintf(expected, sizeof expected, "test_logging.c:%d>\n", line);
    const char *text = lt_read_file(out_path);
    ck_assert_msg(strncmp(text, "<LOADER>[INFO]: here <", 22) == 0 && strstr(text, expected), "%s",
                  text);
}
END_TEST

START_TEST(unchanged_variable_keeps_the_file) {
    lt_temp_dir(dir, sizeof dir);
    char spec[800];
    snprintf(out_path, sizeof out_path, "%s/out.log", dir);
    snprintf(spec, sizeof spec, "level:info;flush:info;output:file,%s", out_path);
    urc_logger_t *lg = configure(spec);
    URC_LOG(lg, UR_LOGGER_LEVEL_INFO, "one");
    configure(spec); // as a re-initialised loader does
    URC_LOG(lg, UR_LOGGER_LEVEL_INFO, "two");
    ck_assert_str_eq(lt_read_file(out_path), "<LOADER>[INFO]: one\n<LOADER>[INFO]: two\n");
    configure(NULL);
    URC_LOG(lg, UR_LOGGER_LEVEL_ERROR, "three"); // quiet again
    ck_assert_str_eq(lt_read_file(out_path), "<LOADER>[INFO]: one\n<LOADER>[INFO]: two\n");
}
END_TEST

START_TEST(cuda_defaults_to_errors) {
    lt_temp_dir(dir, sizeof dir);
    urc_env_reload();
    urc_log_settings_t s;
    urc_log_get_settings(urc_logger(URC_ENV_LOG_CUDA), &s);
    ck_assert_int_eq(s.level, UR_LOGGER_LEVEL_ERROR);
    urc_log_get_settings(urc_logger(URC_ENV_LOG_OPENCL), &s);
    ck_assert_int_eq(s.level, UR_LOGGER_LEVEL_QUIET);
    lt_setenv("UR_SUPPRESS_ERROR_MESSAGE", "1");
    urc_env_reload();
    urc_log_reconfigure(urc_logger(URC_ENV_LOG_CUDA));
    urc_log_get_settings(urc_logger(URC_ENV_LOG_CUDA), &s);
    ck_assert_int_eq(s.level, UR_LOGGER_LEVEL_QUIET);
}
END_TEST

// Through the loader and the fakes.

START_TEST(loader_log_file) {
    lt_temp_dir(dir, sizeof dir);
    char spec[800];
    snprintf(out_path, sizeof out_path, "%s/loader.log", dir);
    snprintf(spec, sizeof spec, "level:info;flush:info;output:file,%s", out_path);
    lt_setenv("UR_LOG_LOADER", spec);
    lt_init_forced(FAKE_A);
    ck_assert_ur_ok(urLoaderTearDown());
    const char *text = lt_read_file(out_path);
    ck_assert_msg(
        strstr(text, "<LOADER>[INFO]: loaded adapter '" FAKE_A "'\n") != NULL &&
            strstr(text, "<LOADER>[INFO]: ---> urLoaderTearDown() -> UR_RESULT_SUCCESS\n"),
        "%s", text);
}
END_TEST

START_TEST(loader_log_malformed) {
    lt_temp_dir(dir, sizeof dir);
    const char *err = capture_stderr();
    lt_setenv("UR_LOG_LOADER", "level:chatty");
    lt_init_forced(FAKE_A);
    ck_assert_msg(
        strstr(captured(err), "UR_LOG_LOADER=\"level:chatty\": 'chatty' is not a level") != NULL,
        "%s", captured(err));
}
END_TEST

typedef struct received_t {
    int count;
    ur_logger_level_t level;
    char message[256];
} received_t;

static void on_message(ur_logger_level_t level, const char *message, void *data) {
    received_t *r = data;
    r->count++;
    r->level = level;
    snprintf(r->message, sizeof r->message, "%s", message);
}

START_TEST(adapter_logger_callback) {
    fake_api_t a, b;
    lt_init_two(&a, &b);
    ur_adapter_handle_t adapters[2];
    ck_assert_uint_eq(lt_adapters(adapters, 2), 2);
    received_t got = {0};
    ck_assert_ur_ok(
        urAdapterSetLoggerCallback(adapters[0], on_message, &got, UR_LOGGER_LEVEL_INFO));
    a.log(UR_LOGGER_LEVEL_INFO, "hello");
    ck_assert_int_eq(got.count, 1);
    ck_assert_int_eq(got.level, UR_LOGGER_LEVEL_INFO);
    ck_assert_str_eq(got.message, "<UR_LOG_CALLBACK>[INFO]: hello\n");
    a.log(UR_LOGGER_LEVEL_DEBUG, "below the callback's level");
    b.log(UR_LOGGER_LEVEL_INFO, "another adapter");
    ck_assert_int_eq(got.count, 1);

    ck_assert_ur_ok(urAdapterSetLoggerCallbackLevel(adapters[0], UR_LOGGER_LEVEL_ERROR));
    a.log(UR_LOGGER_LEVEL_WARN, "now below");
    ck_assert_int_eq(got.count, 1);
    a.log(UR_LOGGER_LEVEL_ERROR, "bad");
    ck_assert_int_eq(got.count, 2);
    ck_assert_int_eq(got.level, UR_LOGGER_LEVEL_ERROR);

    // The adapter's own messages reach it too, whatever its UR_LOG_OPENCL says.
    ck_assert_ur_ok(urAdapterSetLoggerCallbackLevel(adapters[0], UR_LOGGER_LEVEL_DEBUG));
    ur_platform_handle_t platform;
    lt_platforms(adapters[0], &platform, 1);
    ck_assert_str_eq(got.message, "<UR_LOG_CALLBACK>[DEBUG]: fake a: urPlatformGet -> 1\n");
}
END_TEST

START_TEST(adapter_logger_callback_arguments) {
    fake_api_t a, b;
    lt_init_two(&a, &b);
    ur_adapter_handle_t adapter;
    lt_adapters(&adapter, 1);
    ck_assert_ur(urAdapterSetLoggerCallback(adapter, NULL, NULL, UR_LOGGER_LEVEL_INFO),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urAdapterSetLoggerCallback(adapter, on_message, NULL, (ur_logger_level_t)5),
                 UR_RESULT_ERROR_INVALID_ENUMERATION);
    ck_assert_ur(urAdapterSetLoggerCallbackLevel(adapter, (ur_logger_level_t)5),
                 UR_RESULT_ERROR_INVALID_ENUMERATION);
    ck_assert_ur(urAdapterSetLoggerCallbackLevel(NULL, UR_LOGGER_LEVEL_INFO),
                 UR_RESULT_ERROR_INVALID_NULL_HANDLE);
}
END_TEST

START_TEST(cuda_adapter_prints_errors) {
    lt_temp_dir(dir, sizeof dir);
    const char *err = capture_stderr();
    fake_api_t a, b;
    lt_init_two(&a, &b);
    b.log(UR_LOGGER_LEVEL_WARN, "quiet warning");
    b.log(UR_LOGGER_LEVEL_ERROR, "boom");
    a.log(UR_LOGGER_LEVEL_ERROR, "opencl is quiet");
    ck_assert_str_eq(captured(err), "<CUDA>[ERROR]: boom\n");
}
END_TEST

START_TEST(adapter_log_variable) {
    lt_temp_dir(dir, sizeof dir);
    char spec[800];
    snprintf(out_path, sizeof out_path, "%s/opencl.log", dir);
    snprintf(spec, sizeof spec, "level:debug;flush:debug;output:file,%s", out_path);
    lt_setenv("UR_LOG_OPENCL", spec);
    fake_api_t a, b;
    lt_init_two(&a, &b);
    a.log(UR_LOGGER_LEVEL_DEBUG, "to the file");
    ck_assert_str_eq(lt_read_file(out_path), "<OPENCL>[DEBUG]: to the file\n");
}
END_TEST

int main(void) {
    Suite *s = suite_create("logging");
    TCase *tc = lt_tcase("UR_LOG grammar");
    tcase_add_loop_test(tc, grammar_case, 0, (int)(sizeof grammar / sizeof grammar[0]));
    suite_add_tcase(s, tc);
    tc = lt_tcase("messages");
    tcase_add_test(tc, message_format_and_level);
    tcase_add_test(tc, flush_level);
    tcase_add_test(tc, fileline);
    tcase_add_test(tc, unchanged_variable_keeps_the_file);
    tcase_add_test(tc, cuda_defaults_to_errors);
    suite_add_tcase(s, tc);
    tc = lt_tcase("through the loader");
    tcase_add_test(tc, loader_log_file);
    tcase_add_test(tc, loader_log_malformed);
    tcase_add_test(tc, cuda_adapter_prints_errors);
    tcase_add_test(tc, adapter_log_variable);
    suite_add_tcase(s, tc);
    tc = lt_tcase("urAdapterSetLoggerCallback");
    tcase_add_test(tc, adapter_logger_callback);
    tcase_add_test(tc, adapter_logger_callback_arguments);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
