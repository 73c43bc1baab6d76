package io.switchboard.director.dfp;

import java.util.List;

/** What this node reports as a DFP agent: the Load TLVs of its virtual servers, worked out when asked. */
@FunctionalInterface
public interface DfpCapacity {

    /** One Load TLV per port and protocol (draft-eck-dfp-01 §5.2), the hosts being virtual servers. */
    List<DfpLoad> loads();
}
