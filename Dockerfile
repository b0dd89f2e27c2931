# Vignette — multi-stage image (first sketch; the HTTP service issue finishes it).
# Its build steps are scripts/install-deps.sh and scripts/install.sh, which `make install`
# also runs, so they are exercised without a Docker engine.
FROM swift:6.0-bookworm AS build
WORKDIR /src
COPY . .
RUN scripts/install-deps.sh && STATIC_STDLIB=1 scripts/install.sh /opt/vignette

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends libjpeg62-turbo libpng16-16 libfreetype6 fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /nonexistent vignette
COPY --from=build /opt/vignette /opt/vignette
USER vignette
ENTRYPOINT ["/opt/vignette/bin/vignette"]
CMD ["--help"]
