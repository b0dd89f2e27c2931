/* vgn_dbus.c - the libdbus-1 shim: see include/vgn_dbus.h for the contract. libdbus itself is
 * opened by the first vgn_dbus_open (vgn_dbus_lib.h). */
#define _GNU_SOURCE
#include "vgn_dbus.h"
#include "vgn_dbus_lib.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct vgn_dbus {
    DBusConnection *connection;
    int wake_read;
    int wake_write;
};

struct vgn_dbus_call {
    DBusMessage *message;
    DBusMessageIter iter;
    int started; /* whether iter points at an argument yet */
    int ended;
};

struct vgn_dbus_msg {
    DBusMessage *message;
    DBusMessageIter iter;
};

static void set_error(char *err, size_t errlen, const char *text, const DBusError *error) {
    if (err == NULL || errlen == 0) return;
    if (error != NULL && dbus_error_is_set(error) && error->message != NULL) {
        snprintf(err, errlen, "%s: %s", text, error->message);
    } else {
        snprintf(err, errlen, "%s", text);
    }
}

/* The reading thread may be in poll(): any byte on the pipe ends it. */
static void wake_up(void *data) {
    vgn_dbus *bus = data;
    char byte = 1;
    ssize_t written = write(bus->wake_write, &byte, 1);
    (void)written;
}

static void dispatch_status_changed(DBusConnection *connection, DBusDispatchStatus status, void *data) {
    (void)connection;
    if (status == DBUS_DISPATCH_DATA_REMAINS) wake_up(data);
}

vgn_dbus *vgn_dbus_open(const char *address, char *err, size_t errlen) {
    if (!vgn_dbus_lib_load(err, errlen)) return NULL;
    if (!dbus_threads_init_default()) {
        set_error(err, errlen, "cannot initialise libdbus threads", NULL);
        return NULL;
    }
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *connection = NULL;
    if (address != NULL) {
        /* A private connection to an explicit address must be registered with the bus by hand. */
        connection = dbus_connection_open_private(address, &error);
        if (connection != NULL && !dbus_bus_register(connection, &error)) {
            dbus_connection_close(connection);
            dbus_connection_unref(connection);
            connection = NULL;
        }
    } else {
        connection = dbus_bus_get_private(DBUS_BUS_SESSION, &error);
    }
    if (connection == NULL) {
        char what[300];
        if (address != NULL) {
            snprintf(what, sizeof what, "cannot connect to the bus at %.256s", address);
        } else {
            snprintf(what, sizeof what, "cannot connect to the session bus");
        }
        set_error(err, errlen, what, &error);
        dbus_error_free(&error);
        return NULL;
    }
    /* A lost bus must end the service, not the process through libdbus's _exit. */
    dbus_connection_set_exit_on_disconnect(connection, FALSE);
    vgn_dbus *bus = calloc(1, sizeof *bus);
    int fds[2];
    if (bus == NULL || pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) {
        set_error(err, errlen, "cannot create the wake-up pipe", NULL);
        free(bus);
        dbus_connection_close(connection);
        dbus_connection_unref(connection);
        return NULL;
    }
    bus->connection = connection;
    bus->wake_read = fds[0];
    bus->wake_write = fds[1];
    dbus_connection_set_wakeup_main_function(connection, wake_up, bus, NULL);
    dbus_connection_set_dispatch_status_function(connection, dispatch_status_changed, bus, NULL);
    return bus;
}

void vgn_dbus_close(vgn_dbus *bus) {
    if (bus == NULL) return;
    dbus_connection_set_wakeup_main_function(bus->connection, NULL, NULL, NULL);
    dbus_connection_set_dispatch_status_function(bus->connection, NULL, NULL, NULL);
    if (dbus_connection_get_is_connected(bus->connection)) dbus_connection_flush(bus->connection);
    dbus_connection_close(bus->connection);
    dbus_connection_unref(bus->connection);
    close(bus->wake_read);
    close(bus->wake_write);
    free(bus);
}

int vgn_dbus_request_name(vgn_dbus *bus, const char *name, char *err, size_t errlen) {
    DBusError error;
    dbus_error_init(&error);
    int result = dbus_bus_request_name(bus->connection, name, DBUS_NAME_FLAG_DO_NOT_QUEUE, &error);
    if (result < 0 || dbus_error_is_set(&error)) {
        set_error(err, errlen, "cannot own the bus name", &error);
        dbus_error_free(&error);
        return -1;
    }
    return result == DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER || result == DBUS_REQUEST_NAME_REPLY_ALREADY_OWNER ? 1 : 0;
}

void vgn_dbus_release_name(vgn_dbus *bus, const char *name) {
    DBusError error;
    dbus_error_init(&error);
    dbus_bus_release_name(bus->connection, name, &error);
    dbus_error_free(&error);
}

const char *vgn_dbus_unique_name(vgn_dbus *bus) {
    const char *name = dbus_bus_get_unique_name(bus->connection);
    return name != NULL ? name : "";
}

static long long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int vgn_dbus_next_call(vgn_dbus *bus, int timeout_ms, vgn_dbus_call **out) {
    *out = NULL;
    long long deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
    for (;;) {
        /* Non-blocking: reads what has arrived and writes what is queued. */
        dbus_connection_read_write(bus->connection, 0);
        DBusMessage *message;
        while ((message = dbus_connection_pop_message(bus->connection)) != NULL) {
            if (dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_METHOD_CALL) {
                vgn_dbus_call *call = calloc(1, sizeof *call);
                if (call == NULL) {
                    dbus_message_unref(message);
                    continue;
                }
                call->message = message;
                *out = call;
                return 1;
            }
            if (dbus_message_is_signal(message, DBUS_INTERFACE_LOCAL, "Disconnected")) {
                dbus_message_unref(message);
                return -1;
            }
            dbus_message_unref(message);
        }
        if (!dbus_connection_get_is_connected(bus->connection)) return -1;
        int fd = -1;
        if (!dbus_connection_get_unix_fd(bus->connection, &fd)) return -1;
        struct pollfd fds[2] = {
            {.fd = fd, .events = POLLIN | (dbus_connection_has_messages_to_send(bus->connection) ? POLLOUT : 0)},
            {.fd = bus->wake_read, .events = POLLIN},
        };
        int wait = -1;
        if (deadline >= 0) {
            long long left = deadline - now_ms();
            wait = left < 0 ? 0 : (int)left;
        }
        int ready = poll(fds, 2, wait);
        if (ready < 0 && errno != EINTR) return -1;
        if (fds[1].revents & POLLIN) {
            char drain[64];
            while (read(bus->wake_read, drain, sizeof drain) > 0) {
            }
            /* A wake is a reason to return: the caller looks at its own state. */
            dbus_connection_read_write(bus->connection, 0);
            if (dbus_connection_get_dispatch_status(bus->connection) != DBUS_DISPATCH_DATA_REMAINS) return 0;
            continue;
        }
        if (ready == 0 && deadline >= 0 && now_ms() >= deadline) return 0;
        if (fds[0].revents & (POLLHUP | POLLERR)) {
            dbus_connection_read_write(bus->connection, 0);
            if (!dbus_connection_get_is_connected(bus->connection)) return -1;
        }
    }
}

void vgn_dbus_wake(vgn_dbus *bus) { wake_up(bus); }

static const char *or_empty(const char *s) { return s != NULL ? s : ""; }

const char *vgn_dbus_call_interface(vgn_dbus_call *call) { return or_empty(dbus_message_get_interface(call->message)); }
const char *vgn_dbus_call_member(vgn_dbus_call *call) { return or_empty(dbus_message_get_member(call->message)); }
const char *vgn_dbus_call_path(vgn_dbus_call *call) { return or_empty(dbus_message_get_path(call->message)); }
const char *vgn_dbus_call_sender(vgn_dbus_call *call) { return or_empty(dbus_message_get_sender(call->message)); }
const char *vgn_dbus_call_signature(vgn_dbus_call *call) { return or_empty(dbus_message_get_signature(call->message)); }

/* Moves the cursor to the next argument; 0 when there is none. */
static int advance(vgn_dbus_call *call) {
    if (call->ended) return 0;
    if (!call->started) {
        call->started = 1;
        if (!dbus_message_iter_init(call->message, &call->iter)) {
            call->ended = 1;
            return 0;
        }
        return 1;
    }
    if (!dbus_message_iter_next(&call->iter)) {
        call->ended = 1;
        return 0;
    }
    return 1;
}

int vgn_dbus_call_read_strings(vgn_dbus_call *call, const char ***items, size_t *count) {
    *items = NULL;
    *count = 0;
    if (!advance(call)) return 0;
    if (dbus_message_iter_get_arg_type(&call->iter) != DBUS_TYPE_ARRAY ||
        dbus_message_iter_get_element_type(&call->iter) != DBUS_TYPE_STRING)
        return 0;
    int n = dbus_message_iter_get_element_count(&call->iter);
    const char **list = calloc((size_t)n + 1, sizeof *list);
    if (list == NULL) return 0;
    DBusMessageIter sub;
    dbus_message_iter_recurse(&call->iter, &sub);
    size_t i = 0;
    while (i < (size_t)n && dbus_message_iter_get_arg_type(&sub) == DBUS_TYPE_STRING) {
        dbus_message_iter_get_basic(&sub, &list[i]);
        i++;
        dbus_message_iter_next(&sub);
    }
    *items = list;
    *count = i;
    return 1;
}

int vgn_dbus_call_read_string(vgn_dbus_call *call, const char **value) {
    *value = "";
    if (!advance(call) || dbus_message_iter_get_arg_type(&call->iter) != DBUS_TYPE_STRING) return 0;
    dbus_message_iter_get_basic(&call->iter, value);
    return 1;
}

int vgn_dbus_call_read_uint32(vgn_dbus_call *call, uint32_t *value) {
    *value = 0;
    if (!advance(call) || dbus_message_iter_get_arg_type(&call->iter) != DBUS_TYPE_UINT32) return 0;
    dbus_uint32_t v = 0;
    dbus_message_iter_get_basic(&call->iter, &v);
    *value = v;
    return 1;
}

void vgn_dbus_call_free(vgn_dbus_call *call) {
    if (call == NULL) return;
    dbus_message_unref(call->message);
    free(call);
}

static vgn_dbus_msg *wrap(DBusMessage *message) {
    if (message == NULL) return NULL;
    vgn_dbus_msg *msg = calloc(1, sizeof *msg);
    if (msg == NULL) {
        dbus_message_unref(message);
        return NULL;
    }
    msg->message = message;
    dbus_message_iter_init_append(message, &msg->iter);
    return msg;
}

vgn_dbus_msg *vgn_dbus_reply_new(vgn_dbus_call *call) { return wrap(dbus_message_new_method_return(call->message)); }

vgn_dbus_msg *vgn_dbus_signal_new(const char *path, const char *interface, const char *member) {
    /* The one entry point that takes nothing vgn_dbus_open made. */
    if (!vgn_dbus_lib_load(NULL, 0)) return NULL;
    if (!dbus_validate_path(path, NULL) || !dbus_validate_interface(interface, NULL) || !dbus_validate_member(member, NULL))
        return NULL;
    return wrap(dbus_message_new_signal(path, interface, member));
}

int vgn_dbus_msg_append_uint32(vgn_dbus_msg *msg, uint32_t value) {
    dbus_uint32_t v = value;
    return dbus_message_iter_append_basic(&msg->iter, DBUS_TYPE_UINT32, &v) ? 1 : 0;
}

int vgn_dbus_msg_append_int32(vgn_dbus_msg *msg, int32_t value) {
    dbus_int32_t v = value;
    return dbus_message_iter_append_basic(&msg->iter, DBUS_TYPE_INT32, &v) ? 1 : 0;
}

/* libdbus aborts the process on invalid UTF-8: check first. */
int vgn_dbus_msg_append_string(vgn_dbus_msg *msg, const char *value) {
    if (value == NULL || !dbus_validate_utf8(value, NULL)) return 0;
    return dbus_message_iter_append_basic(&msg->iter, DBUS_TYPE_STRING, &value) ? 1 : 0;
}

int vgn_dbus_msg_append_strings(vgn_dbus_msg *msg, const char *const *items, size_t count) {
    for (size_t i = 0; i < count; i++) {
        if (items[i] == NULL || !dbus_validate_utf8(items[i], NULL)) return 0;
    }
    DBusMessageIter sub;
    if (!dbus_message_iter_open_container(&msg->iter, DBUS_TYPE_ARRAY, DBUS_TYPE_STRING_AS_STRING, &sub)) return 0;
    for (size_t i = 0; i < count; i++) {
        if (!dbus_message_iter_append_basic(&sub, DBUS_TYPE_STRING, &items[i])) {
            dbus_message_iter_abandon_container(&msg->iter, &sub);
            return 0;
        }
    }
    return dbus_message_iter_close_container(&msg->iter, &sub) ? 1 : 0;
}

int vgn_dbus_send(vgn_dbus *bus, vgn_dbus_msg *msg) {
    if (msg == NULL) return 0;
    int ok = dbus_connection_send(bus->connection, msg->message, NULL) ? 1 : 0;
    vgn_dbus_msg_free(msg);
    wake_up(bus);
    return ok;
}

void vgn_dbus_msg_free(vgn_dbus_msg *msg) {
    if (msg == NULL) return;
    dbus_message_unref(msg->message);
    free(msg);
}

int vgn_dbus_reply_error(vgn_dbus *bus, vgn_dbus_call *call, const char *name, const char *text) {
    if (!dbus_validate_error_name(name, NULL)) return 0;
    const char *safe = text != NULL && dbus_validate_utf8(text, NULL) ? text : "error";
    DBusMessage *reply = dbus_message_new_error(call->message, name, safe);
    if (reply == NULL) return 0;
    int ok = dbus_connection_send(bus->connection, reply, NULL) ? 1 : 0;
    dbus_message_unref(reply);
    wake_up(bus);
    return ok;
}
