package dev.assay.cli;

import java.util.Comparator;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * The order {@code assay run --help} lists its options in. picocli lists a mixin's options together, where its field
 * is; this keeps the order the help has always had, which mixes the groups, and which users and docs know.
 */
final class RunHelp {
    /** Every option of {@code assay run} by its longest name, in the order the help lists them. */
    static final List<String> ORDER = List.of(
            "--db",
            "--resume",
            "--retry-errors",
            "--stored-cases",
            "--model",
            "--base-url",
            "--api-key-env",
            "--temperature",
            "--seed",
            "--agent",
            "--agent-body",
            "--agent-model",
            "--agent-tools",
            "--agent-config",
            "--agent-auth-env",
            "--agent-auth-header",
            "--agent-event",
            "--agent-path",
            "--versus",
            "--versus-base-url",
            "--versus-api-key-env",
            "--stop-when-decided",
            "--input-field",
            "--target-field",
            "--checker",
            "--template",
            "--choices",
            "--id-field",
            "--dimension",
            "--checker-option",
            "--agent-tools-url",
            "--agent-workspace",
            "--config",
            "--target",
            "--tools",
            "--mcp-stdio",
            "--mcp-url",
            "--replay",
            "--subject",
            "--concurrency",
            "--timeout",
            "--dimensions",
            "--language",
            "--tags",
            "--ids",
            "--limit",
            "--samples",
            "--cluster-by",
            "--reducer",
            "--weights",
            "--scoring",
            "--metric",
            "--user-model",
            "--user-base-url",
            "--user-api-key-env",
            "--environment",
            "--tool-mode",
            "--max-tokens",
            "--max-cost",
            "--run-max-tokens",
            "--case-max-tokens",
            "--dry-run",
            "--max-steps",
            "--retries",
            "--max-retry-wait",
            "--stream",
            "--user-id",
            "--out",
            "--threshold",
            "--skip-invalid",
            "--keep-workspaces",
            "--workspace-dir",
            "--allow-unsandboxed-code",
            "--allow-unsandboxed-commands",
            "--sandbox",
            "--cache",
            "--db-retry",
            "--queue",
            "--otel",
            "--format",
            "--quiet",
            "--verbose",
            "--help",
            "--version");

    private RunHelp() {}

    /** Makes the command's usage help list its options in {@link #ORDER}; one it does not name comes last. */
    static void listOptionsInOrder(CommandSpec command) {
        Comparator<OptionSpec> byOrder = Comparator.comparingInt(option -> {
            int index = ORDER.indexOf(option.longestName());
            return index < 0 ? ORDER.size() : index;
        });
        command.usageMessage()
                .sectionMap()
                .put(
                        UsageMessageSpec.SECTION_KEY_OPTION_LIST,
                        help -> help.optionList(help.createDefaultLayout(), byOrder, help.parameterLabelRenderer()));
    }
}
