#include "cxcbshim.h"
#include <xcb/res.h>

void cxcb_prefetch_resource_extension(xcb_connection_t *connection) {
    xcb_prefetch_extension_data(connection, &xcb_res_id);
}
