# Vignette — the HTTP preview service as a container image.
#
# Its steps are scripts that `make` also runs, so they are exercised without a Docker engine:
# the build stage runs scripts/install-deps.sh and scripts/install.sh (as `make install` does);
# the runtime stage installs scripts/docker-runtime-deps.sh's list; `make image-check` runs the
# same install into a temporary prefix and starts the result as ENTRYPOINT/HEALTHCHECK do.
#
#   docker build -t vignette .
#   docker run --rm -p 8080:8080 -v "$PWD/files:/data:ro" vignette
#   curl 'http://127.0.0.1:8080/v1/thumbnail?path=photo.jpg&size=256' -o thumb.png

FROM swift:6.3.1-bookworm AS build
WORKDIR /src
COPY . .
RUN scripts/install-deps.sh && STATIC_STDLIB=1 scripts/install.sh /opt/vignette

FROM debian:bookworm-slim
COPY scripts/docker-runtime-deps.sh /tmp/docker-runtime-deps.sh
RUN /tmp/docker-runtime-deps.sh --install \
 && rm /tmp/docker-runtime-deps.sh \
 && useradd --system --uid 10001 --home-dir /nonexistent --shell /usr/sbin/nologin vignette \
 && mkdir -p /data /var/cache/vignette \
 && chown vignette /var/cache/vignette
COPY --from=build /opt/vignette /opt/vignette
USER vignette
EXPOSE 8080
# The slim image has no curl: the binary probes itself over loopback.
HEALTHCHECK --interval=30s --timeout=5s --start-period=5s --retries=3 \
  CMD ["/opt/vignette/bin/vignette", "healthcheck", "--port", "8080"]
ENTRYPOINT ["/opt/vignette/bin/vignette", "serve", "--host", "0.0.0.0", "--root", "/data"]
CMD ["--cache-dir", "/var/cache/vignette"]
