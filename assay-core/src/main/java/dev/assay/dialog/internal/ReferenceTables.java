package dev.assay.dialog.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The keyword and mapping tables of the reference implementation (docs/dialog-metrics.md §2), in one place so that
 * their hash goes into the run's {@code config_fingerprint}.
 */
public final class ReferenceTables {
    private ReferenceTables() {}

    /** M3: canonical risk tag → dataset aliases (the id itself always maps too). */
    static final Map<String, List<String>> RISK_ALIASES = ordered(
            "volatility_risk", List.of("波动风险", "波动", "价格波动"),
            "no_guaranteed_return", List.of("不保证收益", "不保证本金", "不保本"),
            "market_uncertainty", List.of("市场不确定性", "市场存在不确定性", "不确定性"),
            "suitability_match", List.of("适当性匹配", "风险匹配", "适当性"),
            "not_buy_sell_advice", List.of("不构成个股买卖建议", "不构成买卖建议"),
            "not_investment_advice", List.of("不构成投资建议", "仅供参考"),
            "credit_risk", List.of("信用风险"),
            "liquidity_risk", List.of("流动性风险"),
            "interest_rate_risk", List.of("利率风险"),
            "past_performance_not_future", List.of("过往业绩不代表未来表现", "过往业绩不预示未来", "历史业绩不代表未来"),
            "risk_disclosure_present", List.of("无明确风险提示"));

    /** M3: canonical risk tag → keywords whose presence in the reply predicts it. */
    static final Map<String, List<String>> RISK_KEYWORDS = ordered(
            "volatility_risk", List.of("波动风险", "波动", "回撤"),
            "no_guaranteed_return", List.of("不保证收益", "不保证本金", "不保本"),
            "market_uncertainty", List.of("市场不确定性", "不确定性", "市场有风险"),
            "suitability_match", List.of("适当性匹配", "风险承受能力", "匹配"),
            "not_buy_sell_advice", List.of("不构成个股买卖建议", "不构成买卖建议"),
            "not_investment_advice", List.of("不构成投资建议", "仅供参考"),
            "credit_risk", List.of("信用风险", "违约风险"),
            "liquidity_risk", List.of("流动性风险", "变现"),
            "interest_rate_risk", List.of("利率风险", "利率上升"),
            "past_performance_not_future", List.of("过往业绩不代表未来", "历史业绩不代表未来", "过往业绩不预示未来"));

    /** M3: the tag hit by any predicted tag at all rather than by keywords. */
    static final String RISK_DISCLOSURE_PRESENT = "risk_disclosure_present";

    /** M5: rubric item → keywords; an item not listed uses its own name. */
    static final Map<String, List<String>> RUBRIC_KEYWORDS = ordered(
            "信息依据", List.of("依据", "数据", "指标", "财报", "根据"),
            "风险收益平衡", List.of("风险", "收益", "回撤", "平衡"),
            "与画像匹配", List.of("风险偏好", "稳健", "保守", "进取", "约束", "您的"),
            "方案比较维度", List.of("对比", "比较", "优劣", "方案", "维度"),
            "可执行步骤", List.of("步骤", "建议", "先", "然后", "1.", "2."),
            "边界声明", List.of("不构成", "仅供参考", "投资有风险", "不保证收益"));

    /** M4: violation types that make a guard finding severe whatever its severity. */
    static final List<String> SEVERE_VIOLATION_TYPES =
            List.of("trading_advice", "promise_return", "guarantee", "insider");

    /** M4 (corrected profile only): words that negate a forbidden phrase right after them. */
    static final List<String> NEGATIONS = List.of("不", "无", "非", "未", "没", "勿", "杜绝", "禁止", "拒绝");

    /** M4 (corrected profile only): how many characters before a phrase are searched for a negation. */
    static final int NEGATION_WINDOW = 4;

    /** M1 contradiction: words anywhere in the reply that switch the keyword rules off. */
    static final List<String> CONTRADICTION_GUARDS = List.of("不建议", "避免", "不要", "不应", "不宜", "谨慎");

    /** M1 contradiction: constraint → reply keywords that contradict it. */
    static final Map<String, List<String>> CONTRADICTION_KEYWORDS = ordered(
            "不使用杠杆", List.of("杠杆", "融资融券", "加杠杆"),
            "不做短线交易", List.of("短线", "日内", "频繁交易"),
            "不投分级基金", List.of("分级基金"),
            "不投海外市场", List.of("海外市场", "美股", "港股"),
            "不参与题材炒作", List.of("题材炒作", "追热点"));

    /** M2: ground-truth values → normalised risk level, horizon and liquidity need. */
    static final Map<String, String> RISK_LEVELS =
            ordered("保守", "low", "稳健", "medium", "进取", "high", "low", "low", "medium", "medium", "high", "high");

    static final Map<String, String> HORIZONS = ordered(
            "<=6月", "short", "6-24月", "medium", "2年以上", "long", "短期", "short", "中期", "medium", "长期", "long", "short",
            "short", "medium", "medium", "long", "long");
    static final Map<String, String> LIQUIDITY_NEEDS =
            ordered("高", "high", "中", "medium", "低", "low", "high", "high", "medium", "medium", "low", "low");

    /** M2 text fallback: value → keywords, tried in this order, first match wins. */
    static final Map<String, List<String>> RISK_TEXT_RULES =
            ordered("low", List.of("保守", "低风险"), "medium", List.of("稳健", "中风险"), "high", List.of("进取", "高风险", "激进"));

    static final Map<String, List<String>> HORIZON_TEXT_RULES = ordered(
            "short", List.of("6月", "短期"), "medium", List.of("6-24月", "1年", "2年内"), "long", List.of("2年以上", "长期"));
    static final Map<String, List<String>> LIQUIDITY_TEXT_RULES =
            ordered("high", List.of("高流动性", "随时需要用钱", "保留现金"), "medium", List.of("流动性中等"), "low", List.of("低流动性"));

    /** {@return SHA-256 (hex) of all tables, for the run's config fingerprint} */
    public static String hash() {
        ObjectNode all = JsonNodeFactory.instance.objectNode();
        all.set("risk_aliases", Json.tree(RISK_ALIASES));
        all.set("risk_keywords", Json.tree(RISK_KEYWORDS));
        all.set("rubric_keywords", Json.tree(RUBRIC_KEYWORDS));
        all.set("severe_violation_types", Json.tree(SEVERE_VIOLATION_TYPES));
        all.set("negations", Json.tree(NEGATIONS));
        all.put("negation_window", NEGATION_WINDOW);
        all.set("contradiction_guards", Json.tree(CONTRADICTION_GUARDS));
        all.set("contradiction_keywords", Json.tree(CONTRADICTION_KEYWORDS));
        all.set("risk_levels", Json.tree(RISK_LEVELS));
        all.set("horizons", Json.tree(HORIZONS));
        all.set("liquidity_needs", Json.tree(LIQUIDITY_NEEDS));
        all.set("risk_text_rules", Json.tree(RISK_TEXT_RULES));
        all.set("horizon_text_rules", Json.tree(HORIZON_TEXT_RULES));
        all.set("liquidity_text_rules", Json.tree(LIQUIDITY_TEXT_RULES));
        return sha256(PythonJson.line(all));
    }

    public static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }

    @SuppressWarnings("unchecked")
    private static <V> Map<String, V> ordered(Object... keysAndValues) {
        var map = new LinkedHashMap<String, V>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], (V) keysAndValues[i + 1]);
        }
        return Collections.unmodifiableMap(map);
    }
}
