# One image definition with a stage per service (compose picks the stage with `target`).
# Internal packages run as TypeScript source through tsx, so only the dashboard needs a build.
FROM node:20-bookworm-slim AS base
ENV PNPM_HOME=/pnpm PATH=/pnpm:$PATH CI=true
RUN npm install -g pnpm@10.33.0
WORKDIR /app
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml turbo.json tsconfig.base.json ./
COPY apps/api/package.json apps/api/
COPY apps/worker/package.json apps/worker/
COPY apps/dashboard/package.json apps/dashboard/
COPY packages/contract/package.json packages/contract/
COPY packages/core/package.json packages/core/
COPY packages/db/package.json packages/db/
COPY packages/discord-proxy/package.json packages/discord-proxy/
COPY packages/discord-sandbox/package.json packages/discord-sandbox/
COPY packages/queue/package.json packages/queue/
COPY packages/rank-card/package.json packages/rank-card/
COPY packages/runtime/package.json packages/runtime/
COPY packages/testing/package.json packages/testing/
RUN pnpm install --frozen-lockfile
COPY . .

FROM base AS migrate
CMD ["pnpm", "db:migrate"]

FROM base AS api
# `docker compose run --rm api doctor`: the deployment checks (apps/api/bin/doctor) on the PATH.
RUN ln -s /app/apps/api/bin/doctor /usr/local/bin/doctor
EXPOSE 4000
CMD ["pnpm", "--filter", "@spacecadet/api", "start"]

FROM base AS worker
CMD ["pnpm", "--filter", "@spacecadet/worker", "start"]

FROM base AS discord-proxy
EXPOSE 4200
CMD ["pnpm", "--filter", "@spacecadet/discord-proxy", "start"]

FROM base AS sandbox
EXPOSE 4100
CMD ["pnpm", "--filter", "@spacecadet/discord-sandbox", "start"]

FROM base AS dashboard
RUN pnpm --filter @spacecadet/dashboard build
EXPOSE 5173
CMD ["pnpm", "--filter", "@spacecadet/dashboard", "start"]
