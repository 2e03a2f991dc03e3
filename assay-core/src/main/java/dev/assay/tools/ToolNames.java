package dev.assay.tools;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The alias table: every name a model, a case file or an agent service may use for a built-in tool, mapped to the
 * canonical name that checkers and reports use. Chinese names from the reference server (docs/checkers.md,
 * "tool_called") and common English variants are covered; names containing {@code @} (MCP {@code server@tool}, user
 * tools) and unknown names pass through unchanged. Thread-safe.
 */
public final class ToolNames {
    public static final String READ_FILE = "read_file";
    public static final String WRITE_FILE = "write_file";
    public static final String EDIT_FILE = "edit_file";
    public static final String REPLACE_TEXT = "replace_text";
    public static final String SEARCH_FILES = "search_files";
    public static final String LIST_FILES = "list_files";
    public static final String EXECUTE_COMMAND = "execute_command";
    public static final String FINAL_ANSWER = "final_answer";

    /** The canonical names of Assay's built-in workspace tools, in the order they are offered. */
    public static final List<String> BUILTIN = List.of(
            READ_FILE, WRITE_FILE, EDIT_FILE, REPLACE_TEXT, SEARCH_FILES, LIST_FILES, EXECUTE_COMMAND, FINAL_ANSWER);

    private static final Map<String, String> ALIASES = aliases();

    private ToolNames() {}

    private static Map<String, String> aliases() {
        var table = new LinkedHashMap<String, String>();
        alias(table, READ_FILE, "读取文件", "read", "readfile", "read_text", "cat", "open_file", "view_file");
        alias(table, WRITE_FILE, "写入文件", "write", "writefile", "create_file", "save_file");
        alias(table, EDIT_FILE, "编辑文件", "edit", "str_replace", "str_replace_editor");
        alias(table, REPLACE_TEXT, "替换文本", "replace", "regex_replace", "sed");
        alias(table, SEARCH_FILES, "搜索内容", "搜索文件", "search_content", "search", "grep", "find_in_files");
        alias(table, LIST_FILES, "列出文件", "list", "ls", "list_dir", "list_directory");
        alias(table, EXECUTE_COMMAND, "执行命令", "shell", "bash", "run_command", "exec", "execute", "terminal");
        alias(table, FINAL_ANSWER, "最终回复", "final_response", "final", "answer", "submit", "finish");
        alias(table, "ptc", "programmatic_tool_call");
        alias(table, "apply_patch", "应用补丁");
        // The reference server's other built-ins at becbe543 (docs/checkers.md, "tool_called"): canonical here is the
        // English
        // alias it shows models, so a case naming either spelling matches a call in the other.
        alias(table, "update_plan", "计划面板");
        alias(table, "question_panel", "问询面板", "ask_panel");
        alias(table, "schedule_task", "定时任务");
        alias(table, "user_world", "用户世界工具");
        alias(table, "memory_manager", "记忆管理", "memory_manage");
        alias(table, "skill_call", "技能调用", "skill_get");
        alias(table, "lsp", "LSP查询");
        alias(table, "subagent_control", "子智能体控制");
        alias(table, "agent_swarm", "智能体蜂群", "swarm_control");
        alias(table, "node_invoke", "节点调用", "node.invoke");
        alias(table, "a2a_observe", "a2a观察");
        alias(table, "a2a_wait", "a2a等待");
        return Map.copyOf(table);
    }

    private static void alias(Map<String, String> table, String canonical, String... names) {
        table.put(canonical, canonical);
        for (String name : names) {
            table.put(name, canonical);
        }
    }

    /**
     * {@return the canonical name for {@code name}}: aliases are matched exactly, then case-insensitively with
     * {@code -}, spaces and dots read as {@code _}; {@code server@tool} names and unknown names are returned unchanged
     * (trimmed).
     */
    public static String canonical(String name) {
        if (name == null) {
            return "";
        }
        String trimmed = name.strip();
        if (trimmed.contains("@")) {
            return trimmed;
        }
        String exact = ALIASES.get(trimmed);
        if (exact != null) {
            return exact;
        }
        String folded = trimmed.toLowerCase(Locale.ROOT).replaceAll("[-\\s.]+", "_");
        return ALIASES.getOrDefault(folded, trimmed);
    }

    /** {@return every alias known for a canonical name, itself included, sorted} */
    public static Set<String> aliasesOf(String canonical) {
        var names = new TreeSet<String>();
        names.add(canonical);
        ALIASES.forEach((alias, target) -> {
            if (target.equals(canonical)) {
                names.add(alias);
            }
        });
        return names;
    }
}
