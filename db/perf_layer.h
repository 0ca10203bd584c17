/*
 * perf_layer.h - what libpfm's perf_events layer adds on top of a PMU's
 * encoding (perf_layer.c).
 */
#ifndef PMUDB_PERF_LAYER_H
#define PMUDB_PERF_LAYER_H

#include "request.h"

/* Privilege levels, period, precise ... and their part of fstr. */
int apply_perf_layer(struct request *rq);

#endif
