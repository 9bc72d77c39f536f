/* accsat fake libc: <openacc.h>, the OpenACC runtime API (OpenACC 2.7/3.x
 * routines).  The spec leaves enumerator values to the implementation; these
 * follow gcc's libgomp, since gcc is the preprocessor accsat runs.  Programs
 * use the names, which every implementation has. */
#ifndef _ACCSAT_OPENACC_H
#define _ACCSAT_OPENACC_H 1

#ifndef __accsat_size_t_defined
#define __accsat_size_t_defined 1
typedef unsigned long size_t;
#endif

typedef enum acc_device_t {
    acc_device_current = -1,
    acc_device_none = 0,
    acc_device_default = 1,
    acc_device_host = 2,
    acc_device_not_host = 4,
    acc_device_nvidia = 5,
    acc_device_radeon = 8
} acc_device_t;

typedef enum acc_device_property_t {
    acc_property_memory = 1,
    acc_property_free_memory = 2,
    acc_property_name = 0x10001,
    acc_property_vendor = 0x10002,
    acc_property_driver = 0x10003
} acc_device_property_t;

typedef enum acc_async_t {
    acc_async_noval = -1,
    acc_async_sync = -2
} acc_async_t;

/* Devices */
int acc_get_num_devices(acc_device_t);
void acc_set_device_type(acc_device_t);
acc_device_t acc_get_device_type(void);
void acc_set_device_num(int, acc_device_t);
int acc_get_device_num(acc_device_t);
size_t acc_get_property(int, acc_device_t, acc_device_property_t);
const char *acc_get_property_string(int, acc_device_t, acc_device_property_t);
void acc_init(acc_device_t);
void acc_shutdown(acc_device_t);
int acc_on_device(acc_device_t);

/* Asynchronous queues */
int acc_async_test(int);
int acc_async_test_all(void);
void acc_wait(int);
void acc_wait_async(int, int);
void acc_wait_all(void);
void acc_wait_all_async(int);
void acc_async_wait(int);
void acc_async_wait_all(void);

/* Device memory */
void *acc_malloc(size_t);
void acc_free(void *);
void *acc_copyin(void *, size_t);
void *acc_present_or_copyin(void *, size_t);
void *acc_pcopyin(void *, size_t);
void *acc_create(void *, size_t);
void *acc_present_or_create(void *, size_t);
void *acc_pcreate(void *, size_t);
void acc_copyout(void *, size_t);
void acc_copyout_finalize(void *, size_t);
void acc_delete(void *, size_t);
void acc_delete_finalize(void *, size_t);
void acc_update_device(void *, size_t);
void acc_update_self(void *, size_t);
void acc_map_data(void *, void *, size_t);
void acc_unmap_data(void *);
void *acc_deviceptr(void *);
void *acc_hostptr(void *);
int acc_is_present(void *, size_t);
void acc_memcpy_to_device(void *, void *, size_t);
void acc_memcpy_from_device(void *, void *, size_t);
void acc_attach(void **);
void acc_detach(void **);
void acc_detach_finalize(void **);

void acc_copyin_async(void *, size_t, int);
void acc_create_async(void *, size_t, int);
void acc_copyout_async(void *, size_t, int);
void acc_copyout_finalize_async(void *, size_t, int);
void acc_delete_async(void *, size_t, int);
void acc_delete_finalize_async(void *, size_t, int);
void acc_update_device_async(void *, size_t, int);
void acc_update_self_async(void *, size_t, int);
void acc_memcpy_to_device_async(void *, void *, size_t, int);
void acc_memcpy_from_device_async(void *, void *, size_t, int);
void acc_attach_async(void **, int);
void acc_detach_async(void **, int);
void acc_detach_finalize_async(void **, int);

/* CUDA interoperability */
void *acc_get_current_cuda_device(void);
void *acc_get_current_cuda_context(void);
void *acc_get_cuda_stream(int);
int acc_set_cuda_stream(int, void *);

#endif /* _ACCSAT_OPENACC_H */
