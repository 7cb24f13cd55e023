// The one thing of libxcb that Swift cannot say safely: an extension's
// descriptor is a mutable C global, which Swift 6 refuses to touch.
#ifndef CXCBSHIM_H
#define CXCBSHIM_H

#include <xcb/xcb.h>

/// Sends the X-Resource extension's QueryExtension without waiting, so that
/// libxcb never waits for it when the first X-Resource request is made.
void cxcb_prefetch_resource_extension(xcb_connection_t *connection);

#endif
