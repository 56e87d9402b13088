/* SPDX-License-Identifier: GPL-3.0-or-later */
unsigned long autotools_work (unsigned long n);
