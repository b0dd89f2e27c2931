/* vgn_dbus_lib.h - libdbus-1 opened on first use rather than linked (vgn_dbus_lib_load, vgn_dbus_lib.c).
 *
 * Linked, libdbus-1 and what it loads (libsystemd, libgcrypt, libcap, liblz4, libgpg-error) cost
 * every vignette process about 0.7 ms before main, though only `thumbnailer-service` uses D-Bus.
 * vgn_dbus.c includes this header instead of <dbus/dbus.h>: each libdbus function it calls is a
 * member of one table, typed from the declaration in the real header (so calls are checked as
 * before) and filled by dlsym when vgn_dbus_lib_load first runs. All are looked up at once, so a
 * missing one is an error from vgn_dbus_open, not an abort in the middle of a call.
 *
 * Release builds get the headers without the -ldbus-1 (scripts/release-pkg-config.sh): one direct
 * call would not link there, and would load libdbus into every process of any other build. So
 * this header marks every libdbus function deprecated (DBUS_EXPORT is the header's documented
 * hook) and makes using one an error: a function not in VGN_DBUS_FUNCTIONS cannot be called. */
#ifndef VGN_DBUS_LIB_H
#define VGN_DBUS_LIB_H

#include <stddef.h>

#ifdef DBUS_EXPORT
#error "vgn_dbus_lib.h must come before any libdbus header"
#endif
#define DBUS_EXPORT __attribute__((__deprecated__("libdbus is opened on first use: add it to VGN_DBUS_FUNCTIONS")))
/* The header's own inline helpers name a few functions: only our uses are errors. */
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
#include <dbus/dbus.h>

/* Every libdbus function the shim calls. */
#define VGN_DBUS_FUNCTIONS(X) \
    X(dbus_bus_get_private) \
    X(dbus_bus_get_unique_name) \
    X(dbus_bus_register) \
    X(dbus_bus_release_name) \
    X(dbus_bus_request_name) \
    X(dbus_connection_close) \
    X(dbus_connection_flush) \
    X(dbus_connection_get_dispatch_status) \
    X(dbus_connection_get_is_connected) \
    X(dbus_connection_get_unix_fd) \
    X(dbus_connection_has_messages_to_send) \
    X(dbus_connection_open_private) \
    X(dbus_connection_pop_message) \
    X(dbus_connection_read_write) \
    X(dbus_connection_send) \
    X(dbus_connection_set_dispatch_status_function) \
    X(dbus_connection_set_exit_on_disconnect) \
    X(dbus_connection_set_wakeup_main_function) \
    X(dbus_connection_unref) \
    X(dbus_error_free) \
    X(dbus_error_init) \
    X(dbus_error_is_set) \
    X(dbus_message_get_interface) \
    X(dbus_message_get_member) \
    X(dbus_message_get_path) \
    X(dbus_message_get_sender) \
    X(dbus_message_get_signature) \
    X(dbus_message_get_type) \
    X(dbus_message_is_signal) \
    X(dbus_message_iter_abandon_container) \
    X(dbus_message_iter_append_basic) \
    X(dbus_message_iter_close_container) \
    X(dbus_message_iter_get_arg_type) \
    X(dbus_message_iter_get_basic) \
    X(dbus_message_iter_get_element_count) \
    X(dbus_message_iter_get_element_type) \
    X(dbus_message_iter_init) \
    X(dbus_message_iter_init_append) \
    X(dbus_message_iter_next) \
    X(dbus_message_iter_open_container) \
    X(dbus_message_iter_recurse) \
    X(dbus_message_new_error) \
    X(dbus_message_new_method_return) \
    X(dbus_message_new_signal) \
    X(dbus_message_unref) \
    X(dbus_threads_init_default) \
    X(dbus_validate_error_name) \
    X(dbus_validate_interface) \
    X(dbus_validate_member) \
    X(dbus_validate_path) \
    X(dbus_validate_utf8)

/* The libdbus functions, filled by vgn_dbus_lib_load and read-only after it. */
struct vgn_dbus_lib {
#define VGN_DBUS_MEMBER(fn) __typeof__(&fn) fn;
    VGN_DBUS_FUNCTIONS(VGN_DBUS_MEMBER)
#undef VGN_DBUS_MEMBER
};
#pragma clang diagnostic pop
#pragma clang diagnostic error "-Wdeprecated-declarations"

__attribute__((visibility("hidden"))) extern struct vgn_dbus_lib vgn_dbus_lib;

/* Opens libdbus-1 and looks up every function, once per process; 0 (and why, in `err` when it is not NULL) when it cannot. */
__attribute__((visibility("hidden"))) int vgn_dbus_lib_load(char *err, size_t errlen);

/* The loader itself names the members, so it goes without the redirection below. */
#ifndef VGN_DBUS_LIB_LOADER
#define VGN_DBUS_CALL(fn) (*vgn_dbus_lib.fn)
#define dbus_bus_get_private VGN_DBUS_CALL(dbus_bus_get_private)
#define dbus_bus_get_unique_name VGN_DBUS_CALL(dbus_bus_get_unique_name)
#define dbus_bus_register VGN_DBUS_CALL(dbus_bus_register)
#define dbus_bus_release_name VGN_DBUS_CALL(dbus_bus_release_name)
#define dbus_bus_request_name VGN_DBUS_CALL(dbus_bus_request_name)
#define dbus_connection_close VGN_DBUS_CALL(dbus_connection_close)
#define dbus_connection_flush VGN_DBUS_CALL(dbus_connection_flush)
#define dbus_connection_get_dispatch_status VGN_DBUS_CALL(dbus_connection_get_dispatch_status)
#define dbus_connection_get_is_connected VGN_DBUS_CALL(dbus_connection_get_is_connected)
#define dbus_connection_get_unix_fd VGN_DBUS_CALL(dbus_connection_get_unix_fd)
#define dbus_connection_has_messages_to_send VGN_DBUS_CALL(dbus_connection_has_messages_to_send)
#define dbus_connection_open_private VGN_DBUS_CALL(dbus_connection_open_private)
#define dbus_connection_pop_message VGN_DBUS_CALL(dbus_connection_pop_message)
#define dbus_connection_read_write VGN_DBUS_CALL(dbus_connection_read_write)
#define dbus_connection_send VGN_DBUS_CALL(dbus_connection_send)
#define dbus_connection_set_dispatch_status_function VGN_DBUS_CALL(dbus_connection_set_dispatch_status_function)
#define dbus_connection_set_exit_on_disconnect VGN_DBUS_CALL(dbus_connection_set_exit_on_disconnect)
#define dbus_connection_set_wakeup_main_function VGN_DBUS_CALL(dbus_connection_set_wakeup_main_function)
#define dbus_connection_unref VGN_DBUS_CALL(dbus_connection_unref)
#define dbus_error_free VGN_DBUS_CALL(dbus_error_free)
#define dbus_error_init VGN_DBUS_CALL(dbus_error_init)
#define dbus_error_is_set VGN_DBUS_CALL(dbus_error_is_set)
#define dbus_message_get_interface VGN_DBUS_CALL(dbus_message_get_interface)
#define dbus_message_get_member VGN_DBUS_CALL(dbus_message_get_member)
#define dbus_message_get_path VGN_DBUS_CALL(dbus_message_get_path)
#define dbus_message_get_sender VGN_DBUS_CALL(dbus_message_get_sender)
#define dbus_message_get_signature VGN_DBUS_CALL(dbus_message_get_signature)
#define dbus_message_get_type VGN_DBUS_CALL(dbus_message_get_type)
#define dbus_message_is_signal VGN_DBUS_CALL(dbus_message_is_signal)
#define dbus_message_iter_abandon_container VGN_DBUS_CALL(dbus_message_iter_abandon_container)
#define dbus_message_iter_append_basic VGN_DBUS_CALL(dbus_message_iter_append_basic)
#define dbus_message_iter_close_container VGN_DBUS_CALL(dbus_message_iter_close_container)
#define dbus_message_iter_get_arg_type VGN_DBUS_CALL(dbus_message_iter_get_arg_type)
#define dbus_message_iter_get_basic VGN_DBUS_CALL(dbus_message_iter_get_basic)
#define dbus_message_iter_get_element_count VGN_DBUS_CALL(dbus_message_iter_get_element_count)
#define dbus_message_iter_get_element_type VGN_DBUS_CALL(dbus_message_iter_get_element_type)
#define dbus_message_iter_init VGN_DBUS_CALL(dbus_message_iter_init)
#define dbus_message_iter_init_append VGN_DBUS_CALL(dbus_message_iter_init_append)
#define dbus_message_iter_next VGN_DBUS_CALL(dbus_message_iter_next)
#define dbus_message_iter_open_container VGN_DBUS_CALL(dbus_message_iter_open_container)
#define dbus_message_iter_recurse VGN_DBUS_CALL(dbus_message_iter_recurse)
#define dbus_message_new_error VGN_DBUS_CALL(dbus_message_new_error)
#define dbus_message_new_method_return VGN_DBUS_CALL(dbus_message_new_method_return)
#define dbus_message_new_signal VGN_DBUS_CALL(dbus_message_new_signal)
#define dbus_message_unref VGN_DBUS_CALL(dbus_message_unref)
#define dbus_threads_init_default VGN_DBUS_CALL(dbus_threads_init_default)
#define dbus_validate_error_name VGN_DBUS_CALL(dbus_validate_error_name)
#define dbus_validate_interface VGN_DBUS_CALL(dbus_validate_interface)
#define dbus_validate_member VGN_DBUS_CALL(dbus_validate_member)
#define dbus_validate_path VGN_DBUS_CALL(dbus_validate_path)
#define dbus_validate_utf8 VGN_DBUS_CALL(dbus_validate_utf8)
#endif

#endif /* VGN_DBUS_LIB_H */
