/* accsat fake libc: <omp.h>, the OpenMP runtime API (OpenMP 5.x routines).
 * Sizes of the opaque types and enumerator values follow gcc's libgomp on
 * x86-64 Linux, since gcc is the preprocessor accsat runs. */
#ifndef _ACCSAT_OMP_H
#define _ACCSAT_OMP_H 1

#ifndef __accsat_size_t_defined
#define __accsat_size_t_defined 1
typedef unsigned long size_t;
#endif

/* Opaque locks: 4 bytes (4-aligned) and 16 bytes (8-aligned). */
typedef struct {
    int __omp_lock;
} omp_lock_t;
typedef struct {
    long __omp_nest_lock[2];
} omp_nest_lock_t;

typedef enum omp_sched_t {
    omp_sched_static = 1,
    omp_sched_dynamic = 2,
    omp_sched_guided = 3,
    omp_sched_auto = 4,
    omp_sched_monotonic = 0x80000000U
} omp_sched_t;

typedef enum omp_proc_bind_t {
    omp_proc_bind_false = 0,
    omp_proc_bind_true = 1,
    omp_proc_bind_primary = 2,
    omp_proc_bind_master = 2,
    omp_proc_bind_close = 3,
    omp_proc_bind_spread = 4
} omp_proc_bind_t;

typedef enum omp_sync_hint_t {
    omp_sync_hint_none = 0,
    omp_sync_hint_uncontended = 1,
    omp_sync_hint_contended = 2,
    omp_sync_hint_nonspeculative = 4,
    omp_sync_hint_speculative = 8,
    omp_lock_hint_none = 0,
    omp_lock_hint_uncontended = 1,
    omp_lock_hint_contended = 2,
    omp_lock_hint_nonspeculative = 4,
    omp_lock_hint_speculative = 8
} omp_sync_hint_t;
typedef omp_sync_hint_t omp_lock_hint_t;

typedef enum omp_pause_resource_t {
    omp_pause_soft = 1,
    omp_pause_hard = 2
} omp_pause_resource_t;

typedef unsigned long omp_uintptr_t;

/* Handles are pointer-sized: the largest enumerator makes them unsigned long
   (a GNU extension that pycparser accepts). */
typedef enum omp_memspace_handle_t {
    omp_default_mem_space = 0,
    omp_large_cap_mem_space = 1,
    omp_const_mem_space = 2,
    omp_high_bw_mem_space = 3,
    omp_low_lat_mem_space = 4,
    __omp_memspace_handle_t_max__ = 18446744073709551615UL
} omp_memspace_handle_t;

typedef enum omp_allocator_handle_t {
    omp_null_allocator = 0,
    omp_default_mem_alloc = 1,
    omp_large_cap_mem_alloc = 2,
    omp_const_mem_alloc = 3,
    omp_high_bw_mem_alloc = 4,
    omp_low_lat_mem_alloc = 5,
    omp_cgroup_mem_alloc = 6,
    omp_pteam_mem_alloc = 7,
    omp_thread_mem_alloc = 8,
    __omp_allocator_handle_t_max__ = 18446744073709551615UL
} omp_allocator_handle_t;

typedef enum omp_alloctrait_key_t {
    omp_atk_sync_hint = 1,
    omp_atk_alignment = 2,
    omp_atk_access = 3,
    omp_atk_pool_size = 4,
    omp_atk_fallback = 5,
    omp_atk_fb_data = 6,
    omp_atk_pinned = 7,
    omp_atk_partition = 8
} omp_alloctrait_key_t;

typedef struct omp_alloctrait_t {
    omp_alloctrait_key_t key;
    omp_uintptr_t value;
} omp_alloctrait_t;

typedef enum omp_event_handle_t {
    __omp_event_handle_t_max__ = 18446744073709551615UL
} omp_event_handle_t;

/* Threads and teams */
void omp_set_num_threads(int);
int omp_get_num_threads(void);
int omp_get_max_threads(void);
int omp_get_thread_num(void);
int omp_get_num_procs(void);
int omp_in_parallel(void);
void omp_set_dynamic(int);
int omp_get_dynamic(void);
void omp_set_nested(int);
int omp_get_nested(void);
void omp_set_schedule(omp_sched_t, int);
void omp_get_schedule(omp_sched_t *, int *);
int omp_get_thread_limit(void);
void omp_set_max_active_levels(int);
int omp_get_max_active_levels(void);
int omp_get_supported_active_levels(void);
int omp_get_level(void);
int omp_get_ancestor_thread_num(int);
int omp_get_team_size(int);
int omp_get_active_level(void);
int omp_in_final(void);
int omp_get_cancellation(void);
omp_proc_bind_t omp_get_proc_bind(void);
int omp_get_num_places(void);
int omp_get_place_num_procs(int);
void omp_get_place_proc_ids(int, int *);
int omp_get_place_num(void);
int omp_get_partition_num_places(void);
void omp_get_partition_place_nums(int *);
int omp_get_num_teams(void);
int omp_get_team_num(void);
void omp_set_num_teams(int);
int omp_get_max_teams(void);
void omp_set_teams_thread_limit(int);
int omp_get_teams_thread_limit(void);
int omp_get_max_task_priority(void);
void omp_fulfill_event(omp_event_handle_t);
void omp_display_env(int);

/* Locks */
void omp_init_lock(omp_lock_t *);
void omp_init_lock_with_hint(omp_lock_t *, omp_sync_hint_t);
void omp_destroy_lock(omp_lock_t *);
void omp_set_lock(omp_lock_t *);
void omp_unset_lock(omp_lock_t *);
int omp_test_lock(omp_lock_t *);
void omp_init_nest_lock(omp_nest_lock_t *);
void omp_init_nest_lock_with_hint(omp_nest_lock_t *, omp_sync_hint_t);
void omp_destroy_nest_lock(omp_nest_lock_t *);
void omp_set_nest_lock(omp_nest_lock_t *);
void omp_unset_nest_lock(omp_nest_lock_t *);
int omp_test_nest_lock(omp_nest_lock_t *);

/* Timing */
double omp_get_wtime(void);
double omp_get_wtick(void);

/* Devices */
void omp_set_default_device(int);
int omp_get_default_device(void);
int omp_get_num_devices(void);
int omp_get_device_num(void);
int omp_is_initial_device(void);
int omp_get_initial_device(void);
void *omp_target_alloc(size_t, int);
void omp_target_free(void *, int);
int omp_target_is_present(const void *, int);
int omp_target_memcpy(void *, const void *, size_t, size_t, size_t, int, int);
int omp_target_memcpy_rect(void *, const void *, size_t, int, const size_t *,
                           const size_t *, const size_t *, const size_t *,
                           const size_t *, int, int);
int omp_target_associate_ptr(const void *, const void *, size_t, size_t, int);
int omp_target_disassociate_ptr(const void *, int);

/* Affinity display */
void omp_set_affinity_format(const char *);
size_t omp_get_affinity_format(char *, size_t);
void omp_display_affinity(const char *);
size_t omp_capture_affinity(char *, size_t, const char *);

/* Resources and memory management */
int omp_pause_resource(omp_pause_resource_t, int);
int omp_pause_resource_all(omp_pause_resource_t);
omp_allocator_handle_t omp_init_allocator(omp_memspace_handle_t, int,
                                          const omp_alloctrait_t *);
void omp_destroy_allocator(omp_allocator_handle_t);
void omp_set_default_allocator(omp_allocator_handle_t);
omp_allocator_handle_t omp_get_default_allocator(void);
void *omp_alloc(size_t, omp_allocator_handle_t);
void *omp_aligned_alloc(size_t, size_t, omp_allocator_handle_t);
void *omp_calloc(size_t, size_t, omp_allocator_handle_t);
void *omp_aligned_calloc(size_t, size_t, size_t, omp_allocator_handle_t);
void *omp_realloc(void *, size_t, omp_allocator_handle_t, omp_allocator_handle_t);
void omp_free(void *, omp_allocator_handle_t);

#endif /* _ACCSAT_OMP_H */
