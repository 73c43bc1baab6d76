package io.switchboard.director.config.bind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DurationsTest {

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({
            "500ms,   PT0.5S",
            "0ms,     PT0S",
            "30s,     PT30S",
            "5m,      PT5M",
            "1h,      PT1H",
            "1d,      PT24H",
            "90s,     PT1M30S",
            "05s,     PT5S",
            "PT30S,   PT30S",
            "pt30s,   PT30S",
            "PT0.25S, PT0.25S",
            "P1DT2H,  PT26H",
            "P2D,     PT48H",
            "-PT5S,   PT-5S",
    })
    void parsesUnitsAndIso8601(String text, Duration expected) {
        assertThat(Durations.parse(text)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "[{index}] ''{0}''")
    @CsvSource(value = {"30", "0", "-5", "2.5", "+7", "''"}, quoteCharacter = '\'')
    void refusesBareNumbers(String text) {
        assertThatIllegalArgumentException().isThrownBy(() -> Durations.parse(text))
                .withMessage("must be a duration with a unit, e.g. 30s");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "30x    | unknown unit 'x' in '30x'; use ms, s, m, h or d, or ISO-8601 (PT30S)",
            "30sec  | unknown unit 'sec' in '30sec'; use ms, s, m, h or d, or ISO-8601 (PT30S)",
            "30S    | unknown unit 'S' in '30S'; use ms, s, m, h or d, or ISO-8601 (PT30S)",
            "1.5s   | '1.5s' is not a duration; use a whole number and a unit (500ms, 30s, 5m, 1h, 1d) or ISO-8601 (PT30S)",
            "1h30m  | '1h30m' is not a duration; use a whole number and a unit (500ms, 30s, 5m, 1h, 1d) or ISO-8601 (PT30S)",
            "-5s    | '-5s' is not a duration; use a whole number and a unit (500ms, 30s, 5m, 1h, 1d) or ISO-8601 (PT30S)",
            "s      | 's' is not a duration; use a whole number and a unit (500ms, 30s, 5m, 1h, 1d) or ISO-8601 (PT30S)",
            "P1M    | 'P1M' is not an ISO-8601 duration (days and smaller, e.g. PT30S, P1DT12H)",
            "PT     | 'PT' is not an ISO-8601 duration (days and smaller, e.g. PT30S, P1DT12H)",
            "99999999999999999999s | '99999999999999999999s' is too long a duration",
            "999999999999999999d   | '999999999999999999d' is too long a duration",
    })
    void explainsWhatIsWrong(String text, String message) {
        assertThatIllegalArgumentException().isThrownBy(() -> Durations.parse(text)).withMessage(message);
    }

    @Test
    void largestDayCountThatFitsIsAccepted() {
        assertThat(Durations.parse("36500d")).isEqualTo(Duration.ofDays(36500));
    }
}
