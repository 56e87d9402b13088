#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Corpus differential test at -O2 -flto (see tests/corpus.sh).
OSP_CORPUS_LEVEL="-O2 -flto"
. "$(dirname "$0")/corpus.sh"
