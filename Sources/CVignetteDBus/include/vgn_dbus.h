/*
 * vgn_dbus.h - Vignette's C shim over libdbus-1: a bus connection, incoming method calls,
 * replies and signals. No libdbus type crosses into Swift; every symbol is prefixed vgn_dbus.
 *
 * Why libdbus and not sd-bus: libdbus is the reference implementation that dbus-daemon itself
 * ships (libdbus-1-3 is on every desktop and in every container that has a session bus), while
 * sd-bus comes with libsystemd, which slim containers and non-systemd desktops lack.
 *
 * Loading: libdbus-1 is not linked but opened by the first vgn_dbus_open (or vgn_dbus_signal_new),
 * so processes that never use D-Bus do not load it. Every other call takes something those made.
 *
 * Threading: vgn_dbus_open calls dbus_threads_init_default(), so one thread may wait in
 * vgn_dbus_next_call while others build and send signals. Only the thread that calls
 * vgn_dbus_next_call reads from the bus.
 *
 * Errors: calls that can fail take `char *err, size_t errlen` and write a sentence there.
 */
#ifndef VGN_DBUS_H
#define VGN_DBUS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A connection to a bus (opaque). */
typedef struct vgn_dbus vgn_dbus;
/** A received method call, with a cursor over its arguments (opaque). */
typedef struct vgn_dbus_call vgn_dbus_call;
/** An outgoing message being built: a reply or a signal (opaque). */
typedef struct vgn_dbus_msg vgn_dbus_msg;

/** Connects to the bus at `address`, or the session bus when NULL; NULL on failure (no libdbus-1, no bus). */
vgn_dbus *vgn_dbus_open(const char *address, char *err, size_t errlen);
/** Flushes what is queued, closes a private connection and frees it. */
void vgn_dbus_close(vgn_dbus *bus);
/** Asks for the well-known `name`: 1 when owned now, 0 when another owner has it, -1 on error. */
int vgn_dbus_request_name(vgn_dbus *bus, const char *name, char *err, size_t errlen);
/** Releases a well-known name (new calls for it then start another instance). */
void vgn_dbus_release_name(vgn_dbus *bus, const char *name);
/** This connection's unique name (":1.42"). */
const char *vgn_dbus_unique_name(vgn_dbus *bus);

/**
 * Waits at most `timeout_ms` (-1: for ever) for the next method call. Returns 1 with *out set
 * (free it with vgn_dbus_call_free), 0 on timeout or vgn_dbus_wake, -1 when disconnected.
 * Other messages (signals, replies) are dropped; queued outgoing messages are written meanwhile.
 */
int vgn_dbus_next_call(vgn_dbus *bus, int timeout_ms, vgn_dbus_call **out);
/** Makes a waiting vgn_dbus_next_call return 0 soon (any thread, async-signal-safe). */
void vgn_dbus_wake(vgn_dbus *bus);

/** The call's interface, member, object path, sender and signature ("" when absent). */
const char *vgn_dbus_call_interface(vgn_dbus_call *call);
const char *vgn_dbus_call_member(vgn_dbus_call *call);
const char *vgn_dbus_call_path(vgn_dbus_call *call);
const char *vgn_dbus_call_sender(vgn_dbus_call *call);
const char *vgn_dbus_call_signature(vgn_dbus_call *call);
/** Reads the next argument as a string array: 1 with *items (free() it; the strings belong to the call) and *count, 0 on a type mismatch. */
int vgn_dbus_call_read_strings(vgn_dbus_call *call, const char ***items, size_t *count);
/** Reads the next argument as a string: 1 with *value (belongs to the call), 0 on a type mismatch. */
int vgn_dbus_call_read_string(vgn_dbus_call *call, const char **value);
/** Reads the next argument as a uint32: 1 with *value, 0 on a type mismatch. */
int vgn_dbus_call_read_uint32(vgn_dbus_call *call, uint32_t *value);
/** Frees a call (its strings with it). */
void vgn_dbus_call_free(vgn_dbus_call *call);

/** Starts the reply to `call`; NULL when out of memory. */
vgn_dbus_msg *vgn_dbus_reply_new(vgn_dbus_call *call);
/** Starts a broadcast signal; NULL when out of memory, a name is invalid or libdbus-1 cannot be loaded. */
vgn_dbus_msg *vgn_dbus_signal_new(const char *path, const char *interface, const char *member);
/** Appends one argument; 0 when out of memory or a string is not valid UTF-8. */
int vgn_dbus_msg_append_uint32(vgn_dbus_msg *msg, uint32_t value);
int vgn_dbus_msg_append_int32(vgn_dbus_msg *msg, int32_t value);
int vgn_dbus_msg_append_string(vgn_dbus_msg *msg, const char *value);
int vgn_dbus_msg_append_strings(vgn_dbus_msg *msg, const char *const *items, size_t count);
/** Queues `msg` for sending (any thread), frees it and wakes the reading thread to write it; 0 on failure. */
int vgn_dbus_send(vgn_dbus *bus, vgn_dbus_msg *msg);
/** Frees a message that is not sent. */
void vgn_dbus_msg_free(vgn_dbus_msg *msg);
/** Answers `call` with the D-Bus error `name` and `text`; 0 on failure. */
int vgn_dbus_reply_error(vgn_dbus *bus, vgn_dbus_call *call, const char *name, const char *text);

#ifdef __cplusplus
}
#endif
#endif
