package dev.assay.cli;

import java.util.Map;
import picocli.CommandLine;

/** Gives commands the environment the CLI was started with, so tests can pass their own. */
final class EnvironmentFactory implements CommandLine.IFactory {
    private final Map<String, String> env;

    EnvironmentFactory(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    @Override
    public <K> K create(Class<K> type) throws Exception {
        K instance = CommandLine.defaultFactory().create(type);
        if (instance instanceof NeedsEnvironment needs) {
            needs.environment(env);
        }
        return instance;
    }

    /** Implemented by commands and mixins that read environment variables. */
    interface NeedsEnvironment {
        void environment(Map<String, String> env);
    }
}
