#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Corpus differential test at -O1 (see tests/corpus.sh).
OSP_CORPUS_LEVEL=-O1
. "$(dirname "$0")/corpus.sh"
