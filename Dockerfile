# The shop's image (docs/deploy.md): built once with every dependency, run as plain JavaScript with the
# production dependencies only, as an unprivileged user. No browser: Chromium is for the test suites alone.
#
#   docker build -t printshop .
#   docker run -p 3000:3000 -v printshop-data:/data printshop        # the embedded default (PGlite in /data)

ARG NODE_IMAGE=node:20-bookworm-slim

# 1. Build the client (Vite, dist/client) and the server (tsc, dist/server with its SQL migrations).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci
COPY . .
RUN npm run build

# 2. The production dependencies alone, installed on the same base as the run stage (native add-ons such
#    as @node-rs/argon2 must match its platform).
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev && npm cache clean --force

# 3. Run: dist/ and node_modules/, owned by root and read-only to the shop, which writes only in DATA_DIR.
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
# package.json says "type": "module", which the compiled server's .js files need.
COPY package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
# The process answers /healthz once its migrations ran and it listens; Node 20 has fetch, the image no curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The server itself, not `npm start` (which would build again and needs the devDependencies). It handles
# SIGTERM: stops listening, finishes what it was doing, closes the database (10 s at most).
CMD ["node", "dist/server/main.js"]
