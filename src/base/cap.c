/* cap.c - the cap of an input read whole from a pipe or decompressor,
 * alone so that tests link a program with a smaller one (-DINPUT_CAP=...
 * in tests/adversarial), never through anything read at run time. */
#include "base/input.h"

#ifndef INPUT_CAP
#define INPUT_CAP INPUT_MAX_BYTES
#endif

const uint64_t input_cap = INPUT_CAP;
