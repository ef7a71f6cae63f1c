/* layout_text.h - what the layout form table's rows (layout.h) read with:
 * the cursor of cute_text.h, which the CuTe row's shape:stride reader owns
 * and the TMA and Triton rows borrow for their openers, blanks and errors
 * (a layout's cursor names "layout" and says "at column N:").  Reads text
 * only. */
#ifndef SZ_LAYOUT_TEXT_H
#define SZ_LAYOUT_TEXT_H

#include "cute_text.h"
#include "layout.h"

#endif
