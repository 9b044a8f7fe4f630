// WebKitGTK 4.1 and GTK 3, for Swift, with a few inline helpers for what Swift cannot
// call directly: g_signal_connect is a macro, and GdkEvent is a union whose members Swift
// reads awkwardly. Nothing here decides anything; the Swift side does.
#ifndef SCRATCHPAD_CWEBKITGTK_SHIM_H
#define SCRATCHPAD_CWEBKITGTK_SHIM_H

#include <webkit2/webkit2.h>
#include <gtk/gtk.h>
#include <cairo.h>
#include <math.h>
#include <stdint.h>
#include <gdk/gdkx.h>
#include <X11/extensions/XTest.h>
#include <X11/keysym.h>

/// g_signal_connect, as a function.
static inline gulong scratchpad_connect(gpointer instance, const char *signal, GCallback callback, gpointer data) {
    return g_signal_connect_data(instance, signal, callback, data, NULL, (GConnectFlags)0);
}

/// A web view with its own user content manager, in a web context of this process's own,
/// made once and never freed. Not WebKit's default context: that one is freed by an exit
/// handler, on whatever thread calls exit(), and WebKit aborts when that is not the thread
/// GTK runs on (a test runner's, for one).
static inline GtkWidget *scratchpad_web_view_new(WebKitUserContentManager *manager) {
    static WebKitWebContext *context = NULL;
    if (!context) { context = webkit_web_context_new(); }
    return GTK_WIDGET(g_object_new(WEBKIT_TYPE_WEB_VIEW, "web-context", context, "user-content-manager", manager, NULL));
}

/// The phase of a pointer or touch event, as the front end reads it.
typedef enum {
    SCRATCHPAD_INPUT_OTHER = 0,
    SCRATCHPAD_INPUT_DOWN = 1,
    SCRATCHPAD_INPUT_MOVE = 2,
    SCRATCHPAD_INPUT_UP = 3,
    SCRATCHPAD_INPUT_CANCEL = 4,
} ScratchpadInputPhase;

/// What the front end reads of one GDK input event.
typedef struct {
    ScratchpadInputPhase phase;
    /// 1 for a touch event (GDK_TOUCH_*), 0 for a pointer event (mouse, pen, eraser).
    int is_touch;
    /// Position in the event window's coordinates.
    double x, y;
    /// The touch sequence (a pointer value GDK hands out), 0 for pointer events.
    uint64_t sequence;
    /// The source device's kind (GdkInputSource), -1 when the event has none.
    int source;
    /// Pressure 0...1 and tilt -1...1 from the device's axes; NAN when it gives none.
    double pressure, xtilt, ytilt;
    /// The event's own time (gdk_event_get_time): milliseconds of the display server's
    /// clock, wrapping at 32 bits; 0 (GDK_CURRENT_TIME) when the event has none.
    guint32 time;
} ScratchpadInput;

static inline double scratchpad_axis(const GdkEvent *event, GdkAxisUse use) {
    gdouble value = 0;
    return gdk_event_get_axis(event, use, &value) ? value : NAN;
}

/// Reads a button, motion or touch event. Only the primary button draws: other buttons,
/// double-click events and motion with the button up read as SCRATCHPAD_INPUT_OTHER.
static inline ScratchpadInput scratchpad_read_input(const GdkEvent *event) {
    ScratchpadInput input = { SCRATCHPAD_INPUT_OTHER, 0, 0, 0, 0, -1, NAN, NAN, NAN, 0 };
    gdouble x = 0, y = 0;
    gdk_event_get_coords(event, &x, &y);
    input.x = x;
    input.y = y;
    GdkDevice *device = gdk_event_get_source_device(event);
    if (device) { input.source = (int)gdk_device_get_source(device); }
    input.pressure = scratchpad_axis(event, GDK_AXIS_PRESSURE);
    input.xtilt = scratchpad_axis(event, GDK_AXIS_XTILT);
    input.ytilt = scratchpad_axis(event, GDK_AXIS_YTILT);
    input.time = gdk_event_get_time(event);
    switch (event->type) {
    case GDK_BUTTON_PRESS:
        if (event->button.button == 1) { input.phase = SCRATCHPAD_INPUT_DOWN; }
        break;
    case GDK_MOTION_NOTIFY:
        if (event->motion.state & GDK_BUTTON1_MASK) { input.phase = SCRATCHPAD_INPUT_MOVE; }
        break;
    case GDK_BUTTON_RELEASE:
        if (event->button.button == 1) { input.phase = SCRATCHPAD_INPUT_UP; }
        break;
    case GDK_TOUCH_BEGIN: input.phase = SCRATCHPAD_INPUT_DOWN; input.is_touch = 1; break;
    case GDK_TOUCH_UPDATE: input.phase = SCRATCHPAD_INPUT_MOVE; input.is_touch = 1; break;
    case GDK_TOUCH_END: input.phase = SCRATCHPAD_INPUT_UP; input.is_touch = 1; break;
    case GDK_TOUCH_CANCEL: input.phase = SCRATCHPAD_INPUT_CANCEL; input.is_touch = 1; break;
    default: break;
    }
    if (input.is_touch) { input.sequence = (uint64_t)(uintptr_t)gdk_event_get_event_sequence(event); }
    return input;
}

static inline void scratchpad_fill_common(GdkEvent *event, GtkWidget *widget, double x, double y,
                                          gdouble *x_root, gdouble *y_root, GdkWindow **window) {
    GdkWindow *target = gtk_widget_get_window(widget);
    gint ox = 0, oy = 0;
    if (target) { gdk_window_get_origin(target, &ox, &oy); }
    *window = target ? g_object_ref(target) : NULL;
    *x_root = x + ox;
    *y_root = y + oy;
    GdkSeat *seat = gdk_display_get_default_seat(gtk_widget_get_display(widget));
    GdkDevice *pointer = seat ? gdk_seat_get_pointer(seat) : NULL;
    if (pointer) {
        gdk_event_set_device(event, pointer);
        gdk_event_set_source_device(event, pointer);
    }
}

/// A synthesized touch event (GDK_TOUCH_BEGIN, _UPDATE, _END or _CANCEL) for a realized
/// widget, at widget coordinates. Free with gdk_event_free.
static inline GdkEvent *scratchpad_make_touch(GtkWidget *widget, GdkEventType type, double x, double y,
                                              uint64_t sequence, guint32 time) {
    GdkEvent *event = gdk_event_new(type);
    event->touch.send_event = TRUE;
    event->touch.time = time;
    event->touch.x = x;
    event->touch.y = y;
    event->touch.sequence = (GdkEventSequence *)(uintptr_t)sequence;
    event->touch.emulating_pointer = FALSE;
    scratchpad_fill_common(event, widget, x, y, &event->touch.x_root, &event->touch.y_root, &event->touch.window);
    return event;
}

/// Delivers a synthesized touch event to a realized widget at widget coordinates; returns
/// whether a handler took it.
static inline gboolean scratchpad_send_touch(GtkWidget *widget, GdkEventType type, double x, double y,
                                             uint64_t sequence, guint32 time) {
    GdkEvent *event = scratchpad_make_touch(widget, type, x, y, sequence, time);
    gboolean handled = gtk_widget_event(widget, event);
    gdk_event_free(event);
    return handled;
}

/// A synthesized primary-button event (GDK_BUTTON_PRESS, GDK_MOTION_NOTIFY with the button
/// held, GDK_BUTTON_RELEASE) for a realized widget, at widget coordinates. Free with
/// gdk_event_free.
static inline GdkEvent *scratchpad_make_pointer(GtkWidget *widget, GdkEventType type, double x, double y, guint32 time) {
    GdkEvent *event = gdk_event_new(type);
    if (type == GDK_MOTION_NOTIFY) {
        event->motion.send_event = TRUE;
        event->motion.time = time;
        event->motion.x = x;
        event->motion.y = y;
        event->motion.state = GDK_BUTTON1_MASK;
        scratchpad_fill_common(event, widget, x, y, &event->motion.x_root, &event->motion.y_root, &event->motion.window);
    } else {
        event->button.send_event = TRUE;
        event->button.time = time;
        event->button.x = x;
        event->button.y = y;
        event->button.button = 1;
        event->button.state = type == GDK_BUTTON_RELEASE ? GDK_BUTTON1_MASK : 0;
        scratchpad_fill_common(event, widget, x, y, &event->button.x_root, &event->button.y_root, &event->button.window);
    }
    return event;
}

/// Delivers a synthesized primary-button event to a realized widget at widget coordinates.
static inline gboolean scratchpad_send_pointer(GtkWidget *widget, GdkEventType type, double x, double y, guint32 time) {
    GdkEvent *event = scratchpad_make_pointer(widget, type, x, y, time);
    gboolean handled = gtk_widget_event(widget, event);
    gdk_event_free(event);
    return handled;
}

/// A synthesized GDK_GRAB_BROKEN event for a realized widget (the pointer's grab was taken
/// away: the way a pointer touch is cancelled); NULL when the widget has no window. Free
/// with gdk_event_free.
static inline GdkEvent *scratchpad_make_grab_broken(GtkWidget *widget) {
    GdkWindow *target = gtk_widget_get_window(widget);
    if (!target) { return NULL; }
    GdkEvent *event = gdk_event_new(GDK_GRAB_BROKEN);
    event->grab_broken.window = g_object_ref(target);
    event->grab_broken.send_event = TRUE;
    event->grab_broken.keyboard = FALSE;
    event->grab_broken.implicit = TRUE;
    event->grab_broken.grab_window = NULL;
    return event;
}

/// A synthesized key press for a realized widget's window, with the given modifier state.
/// Free with gdk_event_free.
static inline GdkEvent *scratchpad_make_key_press(GtkWidget *widget, guint keyval, guint state) {
    GdkEvent *event = gdk_event_new(GDK_KEY_PRESS);
    GdkWindow *target = gtk_widget_get_window(widget);
    event->key.window = target ? g_object_ref(target) : NULL;
    event->key.send_event = TRUE;
    event->key.time = GDK_CURRENT_TIME;
    event->key.state = state;
    event->key.keyval = keyval;
    GdkSeat *seat = gdk_display_get_default_seat(gtk_widget_get_display(widget));
    GdkDevice *keyboard = seat ? gdk_seat_get_keyboard(seat) : NULL;
    if (keyboard) { gdk_event_set_device(event, keyboard); }
    return event;
}

/// The event's type (GdkEvent is a union).
static inline GdkEventType scratchpad_event_type(const GdkEvent *event) { return event->type; }

/// The rectangle list of a region, one rectangle at a time.
static inline cairo_rectangle_int_t scratchpad_region_rectangle(const cairo_region_t *region, int index) {
    cairo_rectangle_int_t rectangle;
    cairo_region_get_rectangle(region, index, &rectangle);
    return rectangle;
}

/// Hands a scroll event that reached the overlay to the widget below it (the web view), at
/// the same position (the two cover each other exactly).
static inline gboolean scratchpad_forward_scroll(GtkWidget *target, const GdkEvent *event) {
    if (event->type != GDK_SCROLL || !gtk_widget_get_window(target)) { return FALSE; }
    GdkEvent *copy = gdk_event_copy(event);
    if (copy->scroll.window) { g_object_unref(copy->scroll.window); }
    copy->scroll.window = g_object_ref(gtk_widget_get_window(target));
    gboolean handled = gtk_widget_event(target, copy);
    gdk_event_free(copy);
    return handled;
}

/// Delivers a synthesized GDK_GRAB_BROKEN event to a realized widget.
static inline gboolean scratchpad_send_grab_broken(GtkWidget *widget) {
    GdkEvent *event = scratchpad_make_grab_broken(widget);
    if (!event) { return FALSE; }
    gboolean handled = gtk_widget_event(widget, event);
    gdk_event_free(event);
    return handled;
}

/// Delivers a synthesized scroll event (smooth, by `dx`, `dy`) to a realized widget.
static inline gboolean scratchpad_send_scroll(GtkWidget *widget, double x, double y, double dx, double dy, guint32 time) {
    GdkEvent *event = gdk_event_new(GDK_SCROLL);
    event->scroll.send_event = TRUE;
    event->scroll.time = time;
    event->scroll.x = x;
    event->scroll.y = y;
    event->scroll.direction = GDK_SCROLL_SMOOTH;
    event->scroll.delta_x = dx;
    event->scroll.delta_y = dy;
    scratchpad_fill_common(event, widget, x, y, &event->scroll.x_root, &event->scroll.y_root, &event->scroll.window);
    gboolean handled = gtk_widget_event(widget, event);
    gdk_event_free(event);
    return handled;
}

static inline cairo_status_t scratchpad_append_png(void *closure, const unsigned char *data, unsigned int length) {
    g_byte_array_append((GByteArray *)closure, data, length);
    return CAIRO_STATUS_SUCCESS;
}

/// Draws a realized widget (and its children) into a PNG in memory; NULL on failure.
/// Free with g_byte_array_unref.
static inline GByteArray *scratchpad_widget_png(GtkWidget *widget) {
    int width = gtk_widget_get_allocated_width(widget), height = gtk_widget_get_allocated_height(widget);
    if (width <= 0 || height <= 0) { return NULL; }
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    cairo_t *cr = cairo_create(surface);
    gtk_widget_draw(widget, cr);
    cairo_destroy(cr);
    GByteArray *png = g_byte_array_new();
    cairo_status_t status = cairo_surface_write_to_png_stream(surface, scratchpad_append_png, png);
    cairo_surface_destroy(surface);
    if (status != CAIRO_STATUS_SUCCESS) { g_byte_array_unref(png); return NULL; }
    return png;
}

// The real display, for tests that look and act as a user would: the pointer moved and
// pressed through XTest (real X input: the X server and GDK route it, input shapes
// included), and the screen read back from the X server (what a user sees, not what a
// widget would draw off screen).

/// The X display under GDK, or NULL when GDK does not run on X11.
static inline Display *scratchpad_x_display(void) {
    GdkDisplay *display = gdk_display_get_default();
    if (!display || !GDK_IS_X11_DISPLAY(display)) { return NULL; }
    return GDK_DISPLAY_XDISPLAY(display);
}

/// Whether the display has the XTest extension (Xvfb has it).
static inline int scratchpad_xtest_available(void) {
    Display *display = scratchpad_x_display();
    int event = 0, error = 0, major = 0, minor = 0;
    return display ? XTestQueryExtension(display, &event, &error, &major, &minor) : 0;
}

/// Moves the real pointer to root-window coordinates.
static inline void scratchpad_xtest_move(int x, int y) {
    Display *display = scratchpad_x_display();
    if (!display) { return; }
    XTestFakeMotionEvent(display, -1, x, y, CurrentTime);
    XFlush(display);
}

/// Presses (1) or releases (0) a real pointer button (1 primary, 4 and 5 the wheel).
static inline void scratchpad_xtest_button(unsigned int button, int pressed) {
    Display *display = scratchpad_x_display();
    if (!display) { return; }
    XTestFakeButtonEvent(display, button, pressed ? True : False, CurrentTime);
    XFlush(display);
}

/// Presses (1) or releases (0) the real left Control key.
static inline void scratchpad_xtest_control(int pressed) {
    Display *display = scratchpad_x_display();
    if (!display) { return; }
    KeyCode code = XKeysymToKeycode(display, XK_Control_L);
    if (code == 0) { return; }
    XTestFakeKeyEvent(display, code, pressed ? True : False, CurrentTime);
    XFlush(display);
}

/// A rectangle of the real screen, read from the X server's root window: what a user
/// sees. NULL on failure; free with g_object_unref.
static inline GdkPixbuf *scratchpad_screen(int x, int y, int width, int height) {
    GdkWindow *root = gdk_get_default_root_window();
    return root ? gdk_pixbuf_get_from_window(root, x, y, width, height) : NULL;
}

#endif
