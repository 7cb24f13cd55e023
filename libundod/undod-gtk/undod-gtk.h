/* undod-gtk.h: undod's GTK 4 bridges. Include only this header. */
#pragma once

#include <undod-gtk/undod-text-bridge.h>
