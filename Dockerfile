# voicegraph in a container (README: Operations).
FROM node:24-slim
WORKDIR /app
# The grace is under Docker's default 10 s stop timeout, so the drain ends before SIGKILL does.
# As npm start's: NODE_COMPILE_CACHE (a directory the node user may write), so a restart skips
# type stripping and compiling; MALLOC_ARENA_MAX=2, so V8's threads share two malloc arenas;
# GLIBC_TUNABLES holds malloc's thresholds at their defaults, so a freed block of 128 KiB or more
# goes back to the kernel instead of staying in malloc's heap (docs/benchmarks.md, "Memory").
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000 \
    SHUTDOWN_GRACE_MS=8000 \
    NODE_COMPILE_CACHE=/tmp/voicegraph-compile \
    MALLOC_ARENA_MAX=2 \
    GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072:glibc.malloc.trim_threshold=131072
COPY package.json package-lock.json ./
# Runtime dependencies only: Node 24 runs the TypeScript sources itself (type stripping).
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY src ./src
USER node
EXPOSE 4000
# Exec form, no npm or shell in between: node is PID 1 and receives docker stop's SIGTERM.
CMD ["node", "--max-semi-space-size=6", "--heap-growing-percent=20", "--no-concurrent-recompilation", "--no-memory-reducer-favors-memory", "src/main.ts"]
