#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Corpus differential test at -O2 -g -fcompare-debug (see tests/corpus.sh): the instrumented
# code must not depend on debug information (GCC compiles twice and compares).
OSP_CORPUS_LEVEL="-O2 -g -fcompare-debug"
. "$(dirname "$0")/corpus.sh"
