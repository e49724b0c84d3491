// SPDX-License-Identifier: MIT
// urMem* (buffers) of the OpenCL adapter, through the loader.
#include <stdint.h>
#include <string.h>

#include "oclt.h"

static ur_mem_handle_t buffer(size_t size) {
    ur_mem_handle_t m = NULL;
    ck_assert_ur_ok(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, size, NULL, &m));
    return m;
}

static size_t size_of(ur_mem_handle_t m) {
    size_t size = 0;
    ck_assert_ur_ok(urMemGetInfo(m, UR_MEM_INFO_SIZE, sizeof size, &size, NULL));
    return size;
}

START_TEST(create_read_write) {
    ur_mem_handle_t m = buffer(1024);
    ck_assert_uint_eq(size_of(m), 1024);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(create_copy_host_pointer_copies) {
    int host[4] = {1, 2, 3, 4}, back[4] = {0};
    ur_buffer_properties_t props = {UR_STRUCTURE_TYPE_BUFFER_PROPERTIES, NULL, host};
    ur_mem_handle_t m = NULL;
    ck_assert_ur_ok(urMemBufferCreate(T.context,
                                      UR_MEM_FLAG_READ_WRITE | UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER,
                                      sizeof host, &props, &m));
    host[0] = 99; // the buffer holds a copy
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, m, true, 0, sizeof back, back, 0, NULL, NULL));
    ck_assert_int_eq(back[0], 1);
    ck_assert_int_eq(back[3], 4);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(create_use_host_pointer_uses_it) {
    int host[4] = {5, 6, 7, 8}, back[4] = {0};
    ur_buffer_properties_t props = {UR_STRUCTURE_TYPE_BUFFER_PROPERTIES, NULL, host};
    ur_mem_handle_t m = NULL;
    ck_assert_ur_ok(urMemBufferCreate(
        T.context, UR_MEM_FLAG_READ_WRITE | UR_MEM_FLAG_USE_HOST_POINTER, sizeof host, &props, &m));
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, m, true, 0, sizeof back, back, 0, NULL, NULL));
    ck_assert_int_eq(back[2], 7);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(create_alloc_host_pointer) {
    ur_mem_handle_t m = NULL;
    ck_assert_ur_ok(urMemBufferCreate(
        T.context, UR_MEM_FLAG_READ_WRITE | UR_MEM_FLAG_ALLOC_HOST_POINTER, 256, NULL, &m));
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(create_use_host_pointer_without_pointer_is_invalid_host_ptr) {
    ur_mem_handle_t m = NULL;
    ck_assert_ur(urMemBufferCreate(T.context, UR_MEM_FLAG_USE_HOST_POINTER, 64, NULL, &m),
                 UR_RESULT_ERROR_INVALID_HOST_PTR);
}
END_TEST

START_TEST(create_pointer_without_flag_is_invalid_host_ptr) {
    int host[4];
    ur_buffer_properties_t props = {UR_STRUCTURE_TYPE_BUFFER_PROPERTIES, NULL, host};
    ur_mem_handle_t m = NULL;
    ck_assert_ur(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, sizeof host, &props, &m),
                 UR_RESULT_ERROR_INVALID_HOST_PTR);
}
END_TEST

START_TEST(create_too_large_is_invalid_buffer_size) {
    ur_mem_handle_t m = NULL;
    ck_assert_ur(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, SIZE_MAX / 2, NULL, &m),
                 UR_RESULT_ERROR_INVALID_BUFFER_SIZE);
}
END_TEST

START_TEST(create_with_location_property_is_accepted) {
    ur_buffer_alloc_location_properties_t loc = {UR_STRUCTURE_TYPE_BUFFER_ALLOC_LOCATION_PROPERTIES,
                                                 NULL, 0};
    ur_buffer_properties_t props = {UR_STRUCTURE_TYPE_BUFFER_PROPERTIES, &loc, NULL};
    ur_mem_handle_t m = NULL;
    ck_assert_ur_ok(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, 64, &props, &m));
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(retain_and_release_count) {
    ur_mem_handle_t m = buffer(64);
    ck_assert_ur_ok(urMemRetain(m));
    uint32_t n = 0;
    ck_assert_ur_ok(urMemGetInfo(m, UR_MEM_INFO_REFERENCE_COUNT, sizeof n, &n, NULL));
    ck_assert_uint_eq(n, 2);
    ck_assert_ur_ok(urMemRelease(m));
    ck_assert_ur_ok(urMemGetInfo(m, UR_MEM_INFO_REFERENCE_COUNT, sizeof n, &n, NULL));
    ck_assert_uint_eq(n, 1);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

static uint32_t align_bytes(void) {
    return oclt_device_u32(UR_DEVICE_INFO_MEM_BASE_ADDR_ALIGN) / 8; // reported in bits
}

START_TEST(partition_makes_sub_buffer) {
    ur_mem_handle_t m = buffer(4096);
    size_t origin = align_bytes();
    ur_buffer_region_t region = {UR_STRUCTURE_TYPE_BUFFER_REGION, NULL, origin, 256};
    ur_mem_handle_t sub = NULL;
    ck_assert_ur_ok(urMemBufferPartition(m, UR_MEM_FLAG_READ_WRITE, UR_BUFFER_CREATE_TYPE_REGION,
                                         &region, &sub));
    ck_assert_uint_eq(size_of(sub), 256);
    ck_assert_ur_ok(urMemRelease(sub));
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(partition_sees_parent_data) {
    ur_mem_handle_t m = buffer(4096);
    size_t origin = align_bytes();
    uint8_t data[4096];
    for (size_t i = 0; i < sizeof data; ++i)
        data[i] = (uint8_t)i;
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, m, true, 0, sizeof data, data, 0, NULL, NULL));
    ur_buffer_region_t region = {UR_STRUCTURE_TYPE_BUFFER_REGION, NULL, origin, 16};
    ur_mem_handle_t sub = NULL;
    ck_assert_ur_ok(urMemBufferPartition(m, UR_MEM_FLAG_READ_WRITE, UR_BUFFER_CREATE_TYPE_REGION,
                                         &region, &sub));
    ck_assert_ur_ok(urMemRelease(m)); // the sub-buffer keeps its parent alive
    uint8_t back[16] = {0};
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, sub, true, 0, 16, back, 0, NULL, NULL));
    ck_assert_uint_eq(back[0], (uint8_t)origin);
    ck_assert_ur_ok(urMemRelease(sub));
}
END_TEST

START_TEST(partition_outside_is_invalid_buffer_size) {
    ur_mem_handle_t m = buffer(1024);
    ur_buffer_region_t region = {UR_STRUCTURE_TYPE_BUFFER_REGION, NULL, 512, 1024};
    ur_mem_handle_t sub = NULL;
    ck_assert_ur(urMemBufferPartition(m, UR_MEM_FLAG_READ_WRITE, UR_BUFFER_CREATE_TYPE_REGION,
                                      &region, &sub),
                 UR_RESULT_ERROR_INVALID_BUFFER_SIZE);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(partition_overflowing_region_is_invalid_buffer_size) {
    ur_mem_handle_t m = buffer(1024);
    ur_buffer_region_t region = {UR_STRUCTURE_TYPE_BUFFER_REGION, NULL, SIZE_MAX - 8, 16};
    ur_mem_handle_t sub = NULL;
    ck_assert_ur(urMemBufferPartition(m, UR_MEM_FLAG_READ_WRITE, UR_BUFFER_CREATE_TYPE_REGION,
                                      &region, &sub),
                 UR_RESULT_ERROR_INVALID_BUFFER_SIZE);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(partition_misaligned_is_misaligned_sub_buffer_offset) {
    ur_mem_handle_t m = buffer(4096);
    ur_buffer_region_t region = {UR_STRUCTURE_TYPE_BUFFER_REGION, NULL, 1, 16};
    ur_mem_handle_t sub = NULL;
    ck_assert_ur(urMemBufferPartition(m, UR_MEM_FLAG_READ_WRITE, UR_BUFFER_CREATE_TYPE_REGION,
                                      &region, &sub),
                 UR_RESULT_ERROR_MISALIGNED_SUB_BUFFER_OFFSET);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(partition_of_sub_buffer_is_invalid_mem_object) {
    ur_mem_handle_t m = buffer(4096);
    ur_buffer_region_t region = {UR_STRUCTURE_TYPE_BUFFER_REGION, NULL, 0, 1024};
    ur_mem_handle_t sub = NULL, subsub = NULL;
    ck_assert_ur_ok(urMemBufferPartition(m, UR_MEM_FLAG_READ_WRITE, UR_BUFFER_CREATE_TYPE_REGION,
                                         &region, &sub));
    ck_assert_ur(urMemBufferPartition(sub, UR_MEM_FLAG_READ_WRITE, UR_BUFFER_CREATE_TYPE_REGION,
                                      &region, &subsub),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur_ok(urMemRelease(sub));
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(get_info_context) {
    ur_mem_handle_t m = buffer(64);
    ur_context_handle_t c = NULL;
    ck_assert_ur_ok(urMemGetInfo(m, UR_MEM_INFO_CONTEXT, sizeof c, &c, NULL));
    ck_assert_ptr_eq(c, T.context);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(get_info_small_buffer_is_invalid_size) {
    ur_mem_handle_t m = buffer(64);
    uint32_t small = 0;
    ck_assert_ur(urMemGetInfo(m, UR_MEM_INFO_SIZE, sizeof small, &small, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(native_handle_round_trip) {
    ur_mem_handle_t m = buffer(128);
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urMemGetNativeHandle(m, T.device, &native));
    ur_mem_handle_t again = NULL;
    ck_assert_ur_ok(urMemBufferCreateWithNativeHandle(native, T.context, NULL, &again));
    ck_assert_uint_eq(size_of(again), 128);
    ck_assert_ur_ok(urMemRelease(again)); // not owned
    ck_assert_uint_eq(size_of(m), 128);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(create_with_native_handle_of_other_context_is_invalid_context) {
    ur_mem_handle_t m = buffer(128);
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urMemGetNativeHandle(m, NULL, &native));
    ur_context_handle_t other = NULL;
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &other));
    ur_mem_handle_t again = NULL;
    ck_assert_ur(urMemBufferCreateWithNativeHandle(native, other, NULL, &again),
                 UR_RESULT_ERROR_INVALID_CONTEXT);
    ck_assert_ur_ok(urContextRelease(other));
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

int main(void) {
    Suite *s = suite_create("opencl memory");
    TCase *tc = oclt_tcase("urMemBufferCreate");
    tcase_add_test(tc, create_read_write);
    tcase_add_test(tc, create_copy_host_pointer_copies);
    tcase_add_test(tc, create_use_host_pointer_uses_it);
    tcase_add_test(tc, create_alloc_host_pointer);
    tcase_add_test(tc, create_use_host_pointer_without_pointer_is_invalid_host_ptr);
    tcase_add_test(tc, create_pointer_without_flag_is_invalid_host_ptr);
    tcase_add_test(tc, create_too_large_is_invalid_buffer_size);
    tcase_add_test(tc, create_with_location_property_is_accepted);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urMemRetain");
    tcase_add_test(tc, retain_and_release_count);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urMemBufferPartition");
    tcase_add_test(tc, partition_makes_sub_buffer);
    tcase_add_test(tc, partition_sees_parent_data);
    tcase_add_test(tc, partition_outside_is_invalid_buffer_size);
    tcase_add_test(tc, partition_overflowing_region_is_invalid_buffer_size);
    tcase_add_test(tc, partition_misaligned_is_misaligned_sub_buffer_offset);
    tcase_add_test(tc, partition_of_sub_buffer_is_invalid_mem_object);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urMemGetInfo");
    tcase_add_test(tc, get_info_context);
    tcase_add_test(tc, get_info_small_buffer_is_invalid_size);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urMemGetNativeHandle");
    tcase_add_test(tc, native_handle_round_trip);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urMemBufferCreateWithNativeHandle");
    tcase_add_test(tc, create_with_native_handle_of_other_context_is_invalid_context);
    suite_add_tcase(s, tc);
    return oclt_main(s);
}
