package info.vannier.gotha;

import java.io.*;
import java.util.*;

/**
 * Prints OpenGotha's own standings for every round of each XML file, on several criteria sets:
 * the file's criteria, then every criterion in groups of at most six (OpenGotha's limit), then
 * DC and SDC behind different criteria.  One line per player: key, place, whether the player
 * played a game or had a bye in the event, and the stored (doubled) value of each criterion.
 *
 * Built against OpenGotha 3.51.02's classes (lucvannier/opengotha, src/):
 *   javac -cp lib/jhall.jar -d build $(find src -name '*.java') StandDump.java
 *   java -Djava.awt.headless=true -cp build:lib/jhall.jar info.vannier.gotha.StandDump out.tsv *.xml
 * opengotha-standings.tsv.gz is its output for the files here (not pairgoth's two: OpenGotha
 * 3.51 reads its own files without dataVersion with the old player keys and drops games).
 */
public class StandDump {
    static int[][] SETS = {
        null, // the file's own
        {PlacementParameterSet.PLA_CRIT_NBW, PlacementParameterSet.PLA_CRIT_MMS, PlacementParameterSet.PLA_CRIT_SOSW, PlacementParameterSet.PLA_CRIT_SOSWM1, PlacementParameterSet.PLA_CRIT_SOSWM2, PlacementParameterSet.PLA_CRIT_SODOSW},
        {PlacementParameterSet.PLA_CRIT_SOSOSW, PlacementParameterSet.PLA_CRIT_CUSSW, PlacementParameterSet.PLA_CRIT_SOSM, PlacementParameterSet.PLA_CRIT_SOSMM1, PlacementParameterSet.PLA_CRIT_SOSMM2, PlacementParameterSet.PLA_CRIT_SODOSM},
        {PlacementParameterSet.PLA_CRIT_SOSOSM, PlacementParameterSet.PLA_CRIT_CUSSM, PlacementParameterSet.PLA_CRIT_SOSTS, PlacementParameterSet.PLA_CRIT_EXT, PlacementParameterSet.PLA_CRIT_EXR, PlacementParameterSet.PLA_CRIT_CPS},
        {PlacementParameterSet.PLA_CRIT_STS, PlacementParameterSet.PLA_CRIT_CAT, PlacementParameterSet.PLA_CRIT_RANK, PlacementParameterSet.PLA_CRIT_RATING, 0, 0},
        {PlacementParameterSet.PLA_CRIT_NBW, PlacementParameterSet.PLA_CRIT_DC, PlacementParameterSet.PLA_CRIT_SOSW, 0, 0, 0},
        {PlacementParameterSet.PLA_CRIT_MMS, PlacementParameterSet.PLA_CRIT_SDC, PlacementParameterSet.PLA_CRIT_SOSM, 0, 0, 0},
        {PlacementParameterSet.PLA_CRIT_MMS, PlacementParameterSet.PLA_CRIT_DC, 0, 0, 0, 0},
    };

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(new FileOutputStream(args[0]), true, "UTF-8");
        for (int a = 1; a < args.length; a++) {
            File f = new File(args[a]);
            Tournament t = new Tournament();
            ExternalDocument.importTournamentFromXMLFile(f, t, true, true, true, false, false);
            TournamentParameterSet tps = t.getTournamentParameterSet();
            int nr = tps.getGeneralParameterSet().getNumberOfRounds();
            out.println("FILE\t" + f.getName() + "\t" + nr + "\t" + t.gamesList().size());
            for (int s = 0; s < SETS.length; s++) {
                PlacementParameterSet pps = new PlacementParameterSet(tps.getPlacementParameterSet());
                if (SETS[s] != null) pps.setPlaCriteria(SETS[s]);
                int[] crit = pps.getPlaCriteria();
                StringBuilder names = new StringBuilder();
                for (int c : crit) if (c != 0) names.append(PlacementParameterSet.criterionLongName(c)).append(",");
                for (int r = 0; r < nr; r++) {
                    ArrayList<ScoredPlayer> al = t.orderedScoredPlayersList(r, pps);
                    ScoredPlayerComparator spc = new ScoredPlayerComparator(crit, r, true);
                    out.println("SET\t" + s + "\t" + (r + 1) + "\t" + names);
                    int place = 0;
                    for (int i = 0; i < al.size(); i++) {
                        ScoredPlayer sp = al.get(i);
                        if (i == 0 || spc.compare(al.get(i), al.get(i - 1)) != 0) place = i;
                        StringBuilder line = new StringBuilder();
                        line.append(sp.getKeyString()).append("\t").append(place + 1).append("\t").append(t.isPlayerImplied(sp) ? 1 : 0);
                        for (int c : crit) if (c != 0) line.append("\t").append(sp.getCritValue(c, r));
                        out.println(line);
                    }
                }
            }
        }
        out.close();
        System.exit(0);
    }
}
