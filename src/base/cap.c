/*
 * cap.c - the size cap of an input read whole into memory from a pipe
 * or a decompressor, alone in its file so that the tests can link a
 * program with a smaller one (tests/adversarial: -DINPUT_CAP=...), and
 * never through anything the installed program reads at run time.
 */
#include "base/input.h"

#ifndef INPUT_CAP
#define INPUT_CAP INPUT_MAX_BYTES
#endif

const uint64_t input_cap = INPUT_CAP;
