/* SPDX-License-Identifier: MIT */
/* hlenums.h - what the options know of the hot-list: its policies and
 * encodings as the options name them, and its smallest bound (options.c
 * parses and checks them; collect/hotlist.h takes them).
 */
#ifndef OSP_HLENUMS_H
#define OSP_HLENUMS_H

enum hl_policy { HL_CONCISE, HL_SPACE_SAVING, HL_COUNTING };
enum hl_encoding { HL_ENC_SEQUENCE, HL_ENC_XOR, HL_ENC_ROTATION };

#define HL_MIN_BYTES 4096

#endif /* OSP_HLENUMS_H */
