# syntax=docker/dockerfile:1
# The Scorestream service image. Node 24 runs the TypeScript sources directly (type stripping), so
# the image is the sources plus the production dependencies: there is no build step.
#   docker build -t scorestream .
#   docker run --rm -e KAFKA_BROKERS=host:9092 scorestream start --config examples/scorestream.config.ts
FROM node:24-slim

ENV NODE_ENV=production
WORKDIR /app

# Dependencies first, so editing the sources does not re-run npm ci.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --loglevel=error && npm cache clean --force

COPY --chown=node:node . .
USER node

# The flags of scripts/node-flags (a test keeps the two in step), in NODE_OPTIONS so that
# `docker run -e NODE_OPTIONS=...` replaces them.
ENV NODE_OPTIONS="--max-semi-space-size=16"
# As bin/scorestream: modules compiled once per container, then loaded from the cache.
ENV NODE_COMPILE_CACHE=/tmp/node-compile-cache
ENTRYPOINT ["node", "--disable-warning=TimeoutNegativeWarning", "cli/main.ts"]
CMD ["start", "--config", "examples/scorestream.config.ts"]
