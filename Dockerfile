# voicegraph in a container (README: Operations).
FROM node:24-slim
WORKDIR /app
# The grace is under Docker's default 10 s stop timeout, so the drain ends before SIGKILL does.
# The compile cache in a directory the node user may write (docs/operations.md, "Process defaults").
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000 \
    SHUTDOWN_GRACE_MS=8000 \
    NODE_COMPILE_CACHE=/tmp/voicegraph-compile
COPY package.json package-lock.json ./
# Runtime dependencies only: Node 24 runs the TypeScript sources itself (type stripping).
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY src ./src
USER node
EXPOSE 4000
# Exec form, no npm or shell in between: node is PID 1 and receives docker stop's SIGTERM.
# The young generation's size as npm start sets it (docs/operations.md, "Process defaults").
CMD ["node", "--max-semi-space-size=16", "src/main.ts"]
