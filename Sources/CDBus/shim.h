/* The libdbus-1-dev headers, for the module map: only CVignetteDBus uses them, through its own C. */
#include <dbus/dbus.h>
