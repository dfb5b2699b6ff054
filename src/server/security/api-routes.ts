import type { FastifyInstance, RouteOptions } from 'fastify';
import { refusesMethod } from '../http/route-helpers.ts';

// The routes the running server registers, read from the app itself (an onRoute hook put on every Fastify
// instance the test file creates), so that the API sweeps cover a route added later without anyone
// listing it. Use in a test file:
//   const seen = vi.hoisted(() => [] as SeenRoute[]);
//   vi.mock('fastify', async (original) => (await import('./api-routes.ts')).recordingFastify(await original(), seen));

export type SeenRoute = { method: string; url: string };

type FastifyModule = { default: (...args: never[]) => FastifyInstance };

/** The fastify module with its factory wrapped: each instance records its routes into `seen`. */
export function recordingFastify<M extends FastifyModule>(mod: M, seen: SeenRoute[]): M {
  const real = mod.default as unknown as (...args: unknown[]) => FastifyInstance;
  const wrapped = (...args: unknown[]) => {
    const app = real(...args);
    app.addHook('onRoute', (route: RouteOptions) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) seen.push({ method, url: route.url });
    });
    return app;
  };
  return { ...mod, default: wrapped };
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The routes that do something: not the 405 answers methodNotAllowed registers for the other methods of a
 * path, deduplicated, in registration order.
 */
export function liveRoutes(seen: SeenRoute[]): SeenRoute[] {
  const keys = new Set<string>();
  return seen.filter((r) => {
    const key = `${r.method} ${r.url}`;
    if (keys.has(key) || refusesMethod(r.method, r.url)) return false;
    keys.add(key);
    return true;
  });
}

/** Live routes by a method that may change state (POST, PUT, PATCH, DELETE...). */
export function stateChangingRoutes(seen: SeenRoute[]): SeenRoute[] {
  return liveRoutes(seen).filter((r) => !SAFE.has(r.method));
}

/** Fills a route's `:params` with `fill(name, path)`, URL-encoded. */
export function fillPath(path: string, fill: (name: string, path: string) => string | number): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(String(fill(name, path))));
}
