package dev.assay.run;

/** What happens to a case's workspace after the case. */
public enum WorkspacePolicy {
    /** Keep the workspaces of failed, partial and error items for inspection; delete the rest (the default). */
    KEEP_ON_FAILURE,
    /** Keep every workspace ({@code --keep-workspaces}). */
    KEEP_ALL,
    /** Delete every workspace. */
    KEEP_NONE
}
