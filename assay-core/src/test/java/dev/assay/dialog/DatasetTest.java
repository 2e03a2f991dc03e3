package dev.assay.dialog;

import static dev.assay.dialog.Dialogs.assistant;
import static dev.assay.dialog.Dialogs.dialog;
import static dev.assay.dialog.Dialogs.user;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DatasetTest {

    @Test
    void a_line_that_is_not_json_is_skipped_as_invalid_json_with_a_placeholder_id() {
        Dialog dialog = Dialogs.dataset("{not json").dialogs().getFirst();

        assertThat(dialog.skipReason()).isEqualTo(SkipReason.INVALID_JSON);
        assertThat(dialog.dialogId()).isEqualTo("invalid_json_line_1");
    }

    @Test
    void text_after_the_json_object_makes_the_line_invalid_json() {
        Dialog dialog = Dialogs.dataset(dialog("d1", user("q"), assistant("a")) + " trailing")
                .dialogs()
                .getFirst();

        assertThat(dialog.skipReason()).isEqualTo(SkipReason.INVALID_JSON);
    }

    @Test
    void a_byte_order_mark_makes_the_line_invalid_json_as_in_the_reference() {
        Dialog dialog = Dialogs.dataset("\uFEFF" + dialog("d1", user("q"), assistant("a")))
                .dialogs()
                .getFirst();

        assertThat(dialog.skipReason()).isEqualTo(SkipReason.INVALID_JSON);
    }

    @Test
    void a_dialog_without_turns_is_skipped_as_missing_turns() {
        var object = dialog("d1");
        object.remove("turns");

        assertThat(Dialogs.only(object).skipReason()).isEqualTo(SkipReason.MISSING_TURNS);
    }

    @Test
    void an_empty_turn_list_is_skipped_as_missing_turns() {
        assertThat(Dialogs.only(dialog("d1")).skipReason()).isEqualTo(SkipReason.MISSING_TURNS);
    }

    @Test
    void a_profile_that_is_not_an_object_is_skipped_as_missing_profile_gt() {
        var object = dialog("d1", user("q"), assistant("a"));
        object.put("profile_gt", "稳健");

        assertThat(Dialogs.only(object).skipReason()).isEqualTo(SkipReason.MISSING_PROFILE_GT);
    }

    @Test
    void turns_without_a_user_assistant_pair_are_skipped_as_invalid_turn_sequence() {
        var object = dialog("d1", assistant("a"), user("q"));

        assertThat(Dialogs.only(object).skipReason()).isEqualTo(SkipReason.INVALID_TURN_SEQUENCE);
    }

    @Test
    void pairs_whose_tags_are_all_non_objects_are_skipped_as_missing_gt_tags() {
        var answer = assistant("a");
        answer.put("turn_tags", "none");

        assertThat(Dialogs.only(dialog("d1", user("q"), answer)).skipReason()).isEqualTo(SkipReason.MISSING_GT_TAGS);
    }

    @Test
    void null_tags_become_an_empty_object_so_the_dialog_stays_valid() {
        var answer = assistant("a");
        answer.putNull("turn_tags");

        Dialog dialog = Dialogs.only(dialog("d1", user("q"), answer));

        assertThat(dialog.valid()).isTrue();
        assertThat(dialog.pairs().getFirst().gtTurnTags().isEmpty()).isTrue();
    }

    @Test
    void a_bad_line_does_not_stop_the_lines_after_it() {
        Dataset dataset = Dialogs.dataset(
                "garbage", dialog("d2", user("q"), assistant("a")).toString());

        assertThat(dataset.dialogs()).extracting(Dialog::dialogId).containsExactly("invalid_json_line_1", "d2");
        assertThat(dataset.valid()).extracting(Dialog::dialogId).containsExactly("d2");
    }

    @Test
    void blank_lines_are_skipped_but_still_counted_in_the_dataset_index() {
        Dataset dataset = Dialogs.dataset(
                "", "  ", dialog("d3", user("q"), assistant("a")).toString());

        assertThat(dataset.dialogs())
                .singleElement()
                .extracting(Dialog::datasetIndex)
                .isEqualTo(3);
    }

    @Test
    void skip_reasons_are_counted() {
        Dataset dataset = Dialogs.dataset(
                "x",
                "y",
                dialog("d").toString(),
                dialog("ok", user("q"), assistant("a")).toString());

        assertThat(dataset.skipCounts())
                .containsEntry(SkipReason.INVALID_JSON, 2)
                .containsEntry(SkipReason.MISSING_TURNS, 1)
                .hasSize(2);
    }

    @Test
    void consecutive_user_turns_collapse_to_the_first_one() {
        Dialog dialog = Dialogs.only(dialog("d1", user("first"), user("second"), assistant("a")));

        assertThat(dialog.pairs()).singleElement().satisfies(pair -> {
            assertThat(pair.userText()).isEqualTo("first");
            assertThat(pair.userTurnAbsIdx()).isZero();
            assertThat(pair.gtAssistantAbsIdx()).isEqualTo(2);
        });
    }

    @Test
    void a_trailing_user_turn_without_an_answer_is_dropped() {
        Dialog dialog = Dialogs.only(dialog("d1", user("q1"), assistant("a1"), user("q2")));

        assertThat(dialog.pairs()).hasSize(1);
    }

    @Test
    void an_object_without_an_id_gets_a_line_number_placeholder() {
        var object = dialog("x", user("q"), assistant("a"));
        object.remove("dialog_id");

        assertThat(Dialogs.dataset("", object.toString()).dialogs().getFirst().dialogId())
                .isEqualTo("dialog_2");
    }

    @Test
    void the_historical_dataset_has_four_dialogs_and_four_stubs_without_turns() {
        Path file = SharedData.memfin().resolve("datasets/history-47c0c18/MemFinConv.jsonl");

        Dataset dataset = Dataset.load(file);

        assertThat(dataset.valid()).hasSize(4);
        assertThat(dataset.skipCounts()).containsExactly(java.util.Map.entry(SkipReason.MISSING_TURNS, 4));
        assertThat(dataset.dialogs().subList(4, 8))
                .allSatisfy(d -> assertThat(d.datasetIndex()).isBetween(5, 8));
    }

    @Test
    void the_24_dialog_benchmark_has_316_pairs() {
        Dataset dataset = Dataset.load(SharedData.memfin().resolve("datasets/MemFinConv_24.jsonl"));

        assertThat(dataset.valid()).hasSize(24);
        assertThat(dataset.valid().stream().mapToInt(d -> d.pairs().size()).sum())
                .isEqualTo(316);
    }
}
