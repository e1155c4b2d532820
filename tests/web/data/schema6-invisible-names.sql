-- made by make_schema6_invisible_names.py with donjon aae083f: schema version 6
BEGIN TRANSACTION;
CREATE TABLE game_players (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        score INTEGER NOT NULL,
        place INTEGER NOT NULL,
        winner INTEGER NOT NULL, player_key TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (game_id, seat)
    );
INSERT INTO "game_players" VALUES(1,0,'Zoë',20,1,1,'zoe');
INSERT INTO "game_players" VALUES(1,1,'Ben',4,2,0,'ben');
INSERT INTO "game_players" VALUES(2,0,'Zo​ë',20,1,1,'zo​e');
INSERT INTO "game_players" VALUES(2,1,'Ben',4,2,0,'ben');
INSERT INTO "game_players" VALUES(3,0,'­Zoë‏',20,1,1,'­zoe‏');
INSERT INTO "game_players" VALUES(3,1,'Ben',4,3,0,'ben');
INSERT INTO "game_players" VALUES(3,2,'Ana',5,2,0,'ana');
INSERT INTO "game_players" VALUES(4,0,'Ana',20,1,1,'ana');
INSERT INTO "game_players" VALUES(4,1,'Ana​',4,3,0,'ana​');
INSERT INTO "game_players" VALUES(4,2,'Ben',5,2,0,'ben');
INSERT INTO "game_players" VALUES(5,0,'Ana​',20,1,1,'ana​');
INSERT INTO "game_players" VALUES(5,1,'Zo​ë',4,2,0,'zo​e');
INSERT INTO "game_players" VALUES(6,0,'Ben',20,1,1,'ben');
INSERT INTO "game_players" VALUES(6,1,'👩‍💻',4,3,0,'👩‍💻');
INSERT INTO "game_players" VALUES(6,2,'👩💻',5,2,0,'👩💻');
CREATE TABLE game_versions (
        game_id INTEGER NOT NULL REFERENCES games(id),
        number INTEGER NOT NULL,               -- 1 the first save, then each change
        at TEXT NOT NULL,
        who TEXT NOT NULL,                     -- the page, the API, the command line (and the player's name)
        action TEXT NOT NULL,                  -- save, edit, rename, merge, delete, import
        end_state TEXT NOT NULL,
        result TEXT NOT NULL,
        team TEXT NOT NULL DEFAULT '[]',
        PRIMARY KEY (game_id, number)
    );
INSERT INTO "game_versions" VALUES(1,1,'2026-11-28 08:45:40','donjon','save','{"game":"guildhall","vp_set":"old-world-economy","players":[{"name":"Zoë","guildhall":{},"completed_chapters":0,"vp_cards":[9,9,2],"vp_tokens":0},{"name":"Ben","guildhall":{},"completed_chapters":0,"vp_cards":[4],"vp_tokens":0}]}','{"game":"guildhall","valid":true,"finished":true,"violations":[],"warnings":[],"winner":"Zoë","players":[{"name":"Zoë","score":20,"place":1,"breakdown":{"vp_cards":20,"vp_tokens":0},"inferred":{}},{"name":"Ben","score":4,"place":2,"breakdown":{"vp_cards":4,"vp_tokens":0},"inferred":{}}]}','[]');
INSERT INTO "game_versions" VALUES(2,1,'2026-11-28 08:45:40','donjon','save','{"game":"guildhall","vp_set":"old-world-economy","players":[{"name":"Zo​ë","guildhall":{},"completed_chapters":0,"vp_cards":[9,9,2],"vp_tokens":0},{"name":"Ben","guildhall":{},"completed_chapters":0,"vp_cards":[4],"vp_tokens":0}]}','{"game":"guildhall","valid":true,"finished":true,"violations":[],"warnings":[],"winner":"Zo​ë","players":[{"name":"Zo​ë","score":20,"place":1,"breakdown":{"vp_cards":20,"vp_tokens":0},"inferred":{}},{"name":"Ben","score":4,"place":2,"breakdown":{"vp_cards":4,"vp_tokens":0},"inferred":{}}]}','[]');
INSERT INTO "game_versions" VALUES(3,1,'2026-11-28 08:45:40','donjon','save','{"game":"guildhall","vp_set":"old-world-economy","players":[{"name":"­Zoë‏","guildhall":{},"completed_chapters":0,"vp_cards":[9,9,2],"vp_tokens":0},{"name":"Ben","guildhall":{},"completed_chapters":0,"vp_cards":[4],"vp_tokens":0},{"name":"Ana","guildhall":{},"completed_chapters":0,"vp_cards":[5],"vp_tokens":0}]}','{"game":"guildhall","valid":true,"finished":true,"violations":[],"warnings":[],"winner":"­Zoë‏","players":[{"name":"­Zoë‏","score":20,"place":1,"breakdown":{"vp_cards":20,"vp_tokens":0},"inferred":{}},{"name":"Ben","score":4,"place":3,"breakdown":{"vp_cards":4,"vp_tokens":0},"inferred":{}},{"name":"Ana","score":5,"place":2,"breakdown":{"vp_cards":5,"vp_tokens":0},"inferred":{}}]}','[]');
INSERT INTO "game_versions" VALUES(4,1,'2026-11-28 08:45:40','donjon','save','{"game":"guildhall","vp_set":"old-world-economy","players":[{"name":"Ana","guildhall":{},"completed_chapters":0,"vp_cards":[9,9,2],"vp_tokens":0},{"name":"Ana​","guildhall":{},"completed_chapters":0,"vp_cards":[4],"vp_tokens":0},{"name":"Ben","guildhall":{},"completed_chapters":0,"vp_cards":[5],"vp_tokens":0}]}','{"game":"guildhall","valid":true,"finished":true,"violations":[],"warnings":[],"winner":"Ana","players":[{"name":"Ana","score":20,"place":1,"breakdown":{"vp_cards":20,"vp_tokens":0},"inferred":{}},{"name":"Ana​","score":4,"place":3,"breakdown":{"vp_cards":4,"vp_tokens":0},"inferred":{}},{"name":"Ben","score":5,"place":2,"breakdown":{"vp_cards":5,"vp_tokens":0},"inferred":{}}]}','[]');
INSERT INTO "game_versions" VALUES(5,1,'2026-11-28 08:45:40','donjon','save','{"game":"guildhall","vp_set":"old-world-economy","players":[{"name":"Ana​","guildhall":{},"completed_chapters":0,"vp_cards":[9,9,2],"vp_tokens":0},{"name":"Zo​ë","guildhall":{},"completed_chapters":0,"vp_cards":[4],"vp_tokens":0}]}','{"game":"guildhall","valid":true,"finished":true,"violations":[],"warnings":[],"winner":"Ana​","players":[{"name":"Ana​","score":20,"place":1,"breakdown":{"vp_cards":20,"vp_tokens":0},"inferred":{}},{"name":"Zo​ë","score":4,"place":2,"breakdown":{"vp_cards":4,"vp_tokens":0},"inferred":{}}]}','[]');
INSERT INTO "game_versions" VALUES(6,1,'2026-11-28 08:45:40','donjon','save','{"game":"guildhall","vp_set":"old-world-economy","players":[{"name":"Ben","guildhall":{},"completed_chapters":0,"vp_cards":[9,9,2],"vp_tokens":0},{"name":"👩‍💻","guildhall":{},"completed_chapters":0,"vp_cards":[4],"vp_tokens":0},{"name":"👩💻","guildhall":{},"completed_chapters":0,"vp_cards":[5],"vp_tokens":0}]}','{"game":"guildhall","valid":true,"finished":true,"violations":[],"warnings":[],"winner":"Ben","players":[{"name":"Ben","score":20,"place":1,"breakdown":{"vp_cards":20,"vp_tokens":0},"inferred":{}},{"name":"👩‍💻","score":4,"place":3,"breakdown":{"vp_cards":4,"vp_tokens":0},"inferred":{}},{"name":"👩💻","score":5,"place":2,"breakdown":{"vp_cards":5,"vp_tokens":0},"inferred":{}}]}','[]');
CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        uid TEXT NOT NULL UNIQUE,              -- stable across export and import
        game TEXT NOT NULL,                    -- the game id (guildhall, once-upon-a-castle, guedelon)
        played_at TEXT NOT NULL,               -- local time, 'YYYY-MM-DD HH:MM:SS'
        end_state TEXT NOT NULL,               -- the end state, as JSON (the format of end-states.md)
        result TEXT NOT NULL,                  -- the scorer's JSON result
        team TEXT NOT NULL DEFAULT '[]',       -- the names of a cooperative team (Guedelon), as JSON
        idempotency_key TEXT UNIQUE,           -- the Idempotency-Key header of the save, if any
        table_id INTEGER UNIQUE                -- the table it was entered at, if any
    , deleted_at TEXT, duration_min INTEGER, idempotency_hash TEXT);
INSERT INTO "games" VALUES(1,'3c9810ff8f4e4f39bc57fbd5b2df0ef0','guildhall','2026-11-01 20:00:00','{"game":"guildhall","vp_set":"old-world-economy","players":[{"name":"Zoë","guildhall":{},"completed_chapters":0,"vp_cards":[9,9,2],"vp_tokens":0},{"name":"Ben","guildhall":{},"completed_chapters":0,"vp_cards":[4],"vp_tokens":0}]}','{"game":"guildhall","valid":true,"finished":true,"violations":[],"warnings":[],"winner":"Zoë","players":[{"name":"Zoë","score":20,"place":1,"breakdown":{"vp_cards":20,"vp_tokens":0},"inferred":{}},{"name":"Ben","score":4,"place":2,"breakdown":{"vp_cards":4,"vp_tokens":0},"inferred":{}}]}','[]',NULL,NULL,NULL,NULL,NULL);
INSERT INTO "games" VALUES(2,'565f5c17689242be9cf9a414a52d8f1c','guildhall','2026-11-02 20:00:00','{"game":"guildhall","vp_set":"old-world-economy","players":[{"name":"Zo​ë","guildhall":{},"completed_chapters":0,"vp_cards":[9,9,2],"vp_tokens":0},{"name":"Ben","guildhall":{},"completed_chapters":0,"vp_cards":[4],"vp_tokens":0}]}','{"game":"guildhall","valid":true,"finished":true,"violations":[],"warnings":[],"winner":"Zo​ë","players":[{"name":"Zo​ë","score":20,"place":1,"breakdown":{"vp_cards":20,"vp_tokens":0},"inferred":{}},{"name":"Ben","score":4,"place":2,"breakdown":{"vp_cards":4,"vp_tokens":0},"inferred":{}}]}','[]',NULL,NULL,NULL,NULL,NULL);
INSERT INTO "games" VALUES(3,'ebd1cbf56fcd4bb98b14e5d351755cc9','guildhall','2026-11-03 20:00:00','{"game":"guildhall","vp_set":"old-world-economy","players":[{"name":"­Zoë‏","guildhall":{},"completed_chapters":0,"vp_cards":[9,9,2],"vp_tokens":0},{"name":"Ben","guildhall":{},"completed_chapters":0,"vp_cards":[4],"vp_tokens":0},{"name":"Ana","guildhall":{},"completed_chapters":0,"vp_cards":[5],"vp_tokens":0}]}','{"game":"guildhall","valid":true,"finished":true,"violations":[],"warnings":[],"winner":"­Zoë‏","players":[{"name":"­Zoë‏","score":20,"place":1,"breakdown":{"vp_cards":20,"vp_tokens":0},"inferred":{}},{"name":"Ben","score":4,"place":3,"breakdown":{"vp_cards":4,"vp_tokens":0},"inferred":{}},{"name":"Ana","score":5,"place":2,"breakdown":{"vp_cards":5,"vp_tokens":0},"inferred":{}}]}','[]',NULL,NULL,NULL,NULL,NULL);
INSERT INTO "games" VALUES(4,'1667c264c1c34941bbf71a87be3d1d76','guildhall','2026-11-04 20:00:00','{"game":"guildhall","vp_set":"old-world-economy","players":[{"name":"Ana","guildhall":{},"completed_chapters":0,"vp_cards":[9,9,2],"vp_tokens":0},{"name":"Ana​","guildhall":{},"completed_chapters":0,"vp_cards":[4],"vp_tokens":0},{"name":"Ben","guildhall":{},"completed_chapters":0,"vp_cards":[5],"vp_tokens":0}]}','{"game":"guildhall","valid":true,"finished":true,"violations":[],"warnings":[],"winner":"Ana","players":[{"name":"Ana","score":20,"place":1,"breakdown":{"vp_cards":20,"vp_tokens":0},"inferred":{}},{"name":"Ana​","score":4,"place":3,"breakdown":{"vp_cards":4,"vp_tokens":0},"inferred":{}},{"name":"Ben","score":5,"place":2,"breakdown":{"vp_cards":5,"vp_tokens":0},"inferred":{}}]}','[]',NULL,NULL,NULL,NULL,NULL);
INSERT INTO "games" VALUES(5,'342d1b8680cd4065b21164d8e266d899','guildhall','2026-11-05 20:00:00','{"game":"guildhall","vp_set":"old-world-economy","players":[{"name":"Ana​","guildhall":{},"completed_chapters":0,"vp_cards":[9,9,2],"vp_tokens":0},{"name":"Zo​ë","guildhall":{},"completed_chapters":0,"vp_cards":[4],"vp_tokens":0}]}','{"game":"guildhall","valid":true,"finished":true,"violations":[],"warnings":[],"winner":"Ana​","players":[{"name":"Ana​","score":20,"place":1,"breakdown":{"vp_cards":20,"vp_tokens":0},"inferred":{}},{"name":"Zo​ë","score":4,"place":2,"breakdown":{"vp_cards":4,"vp_tokens":0},"inferred":{}}]}','[]',NULL,NULL,NULL,NULL,NULL);
INSERT INTO "games" VALUES(6,'ff72c155ba5c4e9bb3319118e884a292','guildhall','2026-11-06 20:00:00','{"game":"guildhall","vp_set":"old-world-economy","players":[{"name":"Ben","guildhall":{},"completed_chapters":0,"vp_cards":[9,9,2],"vp_tokens":0},{"name":"👩‍💻","guildhall":{},"completed_chapters":0,"vp_cards":[4],"vp_tokens":0},{"name":"👩💻","guildhall":{},"completed_chapters":0,"vp_cards":[5],"vp_tokens":0}]}','{"game":"guildhall","valid":true,"finished":true,"violations":[],"warnings":[],"winner":"Ben","players":[{"name":"Ben","score":20,"place":1,"breakdown":{"vp_cards":20,"vp_tokens":0},"inferred":{}},{"name":"👩‍💻","score":4,"place":3,"breakdown":{"vp_cards":4,"vp_tokens":0},"inferred":{}},{"name":"👩💻","score":5,"place":2,"breakdown":{"vp_cards":5,"vp_tokens":0},"inferred":{}}]}','[]',NULL,NULL,NULL,NULL,NULL);
CREATE TABLE photo_answers (
        table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        answers TEXT NOT NULL,                 -- JSON: {"marks": {"12": true, ...}, "given": {"towers[2]": "5"}}
        PRIMARY KEY (table_id, seat)
    );
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE table_edits (
        id INTEGER PRIMARY KEY,
        table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        seat INTEGER,                          -- NULL: the shared fields
        key TEXT,                              -- the edit's idempotency key (a retry carries the same)
        at TEXT NOT NULL,
        before TEXT NOT NULL,                  -- the part (or shared fields) before the edit, as JSON
        undone INTEGER NOT NULL DEFAULT 0,
        UNIQUE (table_id, key)
    );
CREATE TABLE table_parts (
        table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        data TEXT NOT NULL DEFAULT '{}',       -- this player's part of the end state (JSON)
        PRIMARY KEY (table_id, seat)
    );
INSERT INTO "table_parts" VALUES(1,0,'Cy','{"guildhall":{},"completed_chapters":0,"vp_cards":[],"vp_tokens":0}');
INSERT INTO "table_parts" VALUES(1,1,'Cy⁠','{"guildhall":{},"completed_chapters":0,"vp_cards":[],"vp_tokens":0}');
CREATE TABLE table_photos (
        table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        number INTEGER NOT NULL,               -- 1 the first photo of the sheet, then each added
        name TEXT NOT NULL,                    -- the file's name as the phone sent it
        data BLOB NOT NULL,                    -- the photo as the phone sent it
        at TEXT NOT NULL, reading TEXT, image BLOB,
        PRIMARY KEY (table_id, seat, number)
    );
CREATE TABLE tables (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        created_at TEXT NOT NULL,
        options TEXT NOT NULL,                 -- the options chosen when the table was set (JSON)
        team TEXT NOT NULL DEFAULT '[]',       -- a cooperative game's players, as JSON (Guedelon)
        shared TEXT NOT NULL DEFAULT '{}',     -- the fields that belong to no one player (JSON)
        version INTEGER NOT NULL DEFAULT 1,    -- bumped on every change: what live pages poll for
        game_id INTEGER REFERENCES games(id)   -- the saved game, once saved
    , corrects INTEGER REFERENCES games(id), corrects_version INTEGER);
INSERT INTO "tables" VALUES(1,'guildhall','2026-11-28 08:45:40','{"vp_set":"old-world-economy"}','[]','{}',1,NULL,NULL,NULL);
CREATE INDEX game_players_by_name ON game_players(name);
CREATE INDEX table_edits_by_part ON table_edits(table_id, seat, id);
CREATE INDEX game_players_by_key ON game_players(player_key);
COMMIT;
PRAGMA user_version = 6;
