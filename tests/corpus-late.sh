#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Corpus differential test at -O2 with placement=late: osp instruments after GCC's IPA
# inliner, and calls to functions that IPA analysed get barriers (see tests/corpus.sh).
OSP_CORPUS_LEVEL=-O2
OSP_CORPUS_OSPFLAGS=-fplugin-arg-osp-placement=late
. "$(dirname "$0")/corpus.sh"
