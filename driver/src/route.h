/* route.h: the point-to-point route rule of the routers, hop by hop (route.c), for the
 * driver's own use and for its test against the unit tests' reference
 * (tests/driver/route_test.cpp). Not installed.
 */
#ifndef CANOPY_ROUTE_H
#define CANOPY_ROUTE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Walk the dimension-order route from node src to node dst of the torus (ndims
 * dimensions of sizes[d] nodes, X fastest in node numbers): hop(ctx, node, port) for each
 * link it crosses, in order (port 2d: + in dimension d, 2d+1: -). A nonzero return from
 * hop stops the walk and is returned; 0 when the route is walked to its end. */
int canopy_route_walk(unsigned ndims, const unsigned *sizes, int src, int dst,
                      int (*hop)(void *ctx, int node, unsigned port), void *ctx);

/* The node one hop from node through port (2d: + in dimension d, 2d+1: -). */
int canopy_route_neighbour(const unsigned *sizes, int node, unsigned port);

#ifdef __cplusplus
}
#endif

#endif
