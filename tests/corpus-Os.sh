#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Corpus differential test at -Os (see tests/corpus.sh).
OSP_CORPUS_LEVEL=-Os
. "$(dirname "$0")/corpus.sh"
