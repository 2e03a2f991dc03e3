/**
 * Trials in containers: the {@code docker} and {@code podman} sandbox kinds, which run each trial of a case naming an
 * image in a container of its own through the engine's Docker-compatible API (docker-java over the unix socket), with a
 * warm pool per image and the containers of a killed Assay reaped at the next start.
 */
package dev.assay.sandbox.container;
