package dev.assay.sandbox;

import java.nio.file.Path;
import java.util.Collection;

/**
 * A container engine (Docker, or Podman's Docker-compatible service) that runs each trial of a case naming an image
 * ({@link ContainerSpec}) in a container of its own. Found by name through {@link SandboxProvider#containers()}; one
 * instance per engine and process, which keeps the warm pools. Thread-safe.
 */
public interface ContainerEngine {
    /** {@return the engine's name, e.g. {@code docker} or {@code podman}} */
    String name();

    /** {@return whether the engine's socket is on this machine (it may still not answer)} */
    boolean present();

    /**
     * Makes sure a run can start its trials: the engine answers, every image is there, and the containers a killed
     * Assay left behind are removed. Starts warming the pools of {@code specs}. Called before any case runs.
     *
     * @param specs the containers the run's cases ask for
     * @param workspaceRoot where the run's case workspaces are made (warm containers' workspaces wait beside them)
     * @throws dev.assay.AssayException {@code sandbox.unavailable} naming the socket or the image
     */
    void prepare(Collection<ContainerSpec> specs, Path workspaceRoot) throws InterruptedException;

    /**
     * {@return a started container for one trial, its workdir showing {@code workspace}}: taken warm from the pool of
     * {@code spec} when one waits. What the image holds in its workdir is in the workspace, and the files already in
     * {@code workspace} (the case's own) are laid over it.
     *
     * @param runId the run the container is labelled with, so that a later start can reap it
     * @throws dev.assay.AssayException {@code sandbox.unavailable} when no container can be started
     */
    ContainerTrial open(ContainerSpec spec, Path workspace, Path workspaceRoot, String runId)
            throws InterruptedException;

    /**
     * {@return where the environments of {@code spec}'s trials run}: each command {@link Sandbox#start started} there
     * gets a fresh container of its own, made from the same image with the same limits and network, that the trial's
     * container never sees; the {@link SandboxRequest#readOnly() read-only} paths are copies shown at the same paths,
     * and closing the command removes its container
     *
     * @param workspaceRoot where the run's case workspaces are made (the copies wait beside them)
     * @param runId the run the containers are labelled with, so that a later start can reap them
     */
    Sandbox environments(ContainerSpec spec, Path workspaceRoot, String runId);
}
