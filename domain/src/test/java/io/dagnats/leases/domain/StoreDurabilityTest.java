package io.dagnats.leases.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class StoreDurabilityTest {

    @Test
    void oneReplicaNamesTheOneServersFsyncSettingAsUnknowable() {
        assertEquals("file storage on 1 server: acknowledged writes survive its power loss only with"
                + " sync_interval: always there (a server setting dagnats cannot read)", new StoreDurability(1).phrase());
    }

    @Test
    void aClusteredBucketSurvivesAMinorityAndNamesEachServersFsyncSetting() {
        assertEquals("file storage on 3 servers: acknowledged writes survive the loss of a minority, and a power"
                + " loss of all only with sync_interval: always on each (a server setting dagnats cannot read)",
                new StoreDurability(3).phrase());
    }

    @Test
    void aBucketHasAReplica() {
        assertThrows(IllegalArgumentException.class, () -> new StoreDurability(0));
    }
}
